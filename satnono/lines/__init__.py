"""Line kernels: what one line implies, for each kind of clue."""
