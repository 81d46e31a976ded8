"""Certificates: verdicts that come with a proof anyone can check without trusting satnono (issue #40)."""
