module pgorec

go 1.21
