"""wartable.persistence"""
