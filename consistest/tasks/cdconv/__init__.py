"""CDConv (Zheng et al., 2022): dialogue contradiction detection with categories."""
