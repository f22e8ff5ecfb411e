"""Tests of installer/ and of the self-test of a built app."""
