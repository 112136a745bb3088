"""Layer 3: one package per method. A task imports the layers below, never another task."""
