"""The throwaway realistic repository behind `changelog demo`."""
