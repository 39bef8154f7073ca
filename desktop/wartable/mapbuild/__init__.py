"""wartable.mapbuild"""
