"""wartable.printing"""
