module pgohot

go 1.21
