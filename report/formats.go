package main

// The XLSX and Parquet readers are edge packages (excelize, arrow-go);
// importing them registers the xlsx and parquet formats with pkg/qa, and
// parquetio also registers lighteval's details reader and the parquet row
// writer with pkg/interop.
import (
	_ "github.com/evalbook/evalbook/pkg/parquetio"
	_ "github.com/evalbook/evalbook/pkg/xlsxread"
)
