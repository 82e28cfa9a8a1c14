"""The diff engine: master configs and recipes as data, what a branch changed in them, and the git-facing engine that reads both trees."""
