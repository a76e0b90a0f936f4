module verdict.local/goreference

go 1.19
