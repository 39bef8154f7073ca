"""One module per step kind of 1940: What If?, each citing its rules."""
