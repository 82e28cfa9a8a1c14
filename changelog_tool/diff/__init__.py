"""The diff engine: master configs and recipes as data, and what a branch changed in them."""
