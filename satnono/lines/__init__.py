"""Line kernels: one line at a time, ints in, ints out; and the numpy batch kernel."""
