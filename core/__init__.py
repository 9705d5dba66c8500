"""perftscope's computing core: no Qt here. The numba kernels live in core.kernels;
the modules beside them give them a friendly Python face."""
