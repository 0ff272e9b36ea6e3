package main

// The XLSX reader is an edge package (it needs excelize); importing it
// registers the xlsx format with pkg/qa.
import _ "github.com/evalbook/evalbook/pkg/workbook"
