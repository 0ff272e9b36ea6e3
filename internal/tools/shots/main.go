// Command shots is the Go half of scripts/screenshots.sh.
//
//	shots serve TEXT   start the loopback bigram model of pkg/tasks/tasktest
//	                   trained on TEXT, print its base URL (http://127.0.0.1:P/v1)
//	                   and serve until stdin closes
//	shots trim PNG...  cut the rows at the bottom of each screenshot that are all
//	                   the colour of its last row (a page shorter than the window
//	                   Chromium was given), leaving a margin of 16 px
//	shots tile H PNG... cut each tall screenshot into pieces H px high
//	                   (NAME.tile-01.png, ...) that an image viewer shows at full size
//
// Chromium's --screenshot takes the window, not the page: the script asks
// for a tall window and trims, which gives the full page height without a
// DevTools client.
package main

import (
	"bufio"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "serve":
		if len(os.Args) != 3 {
			usage()
		}
		s := tasktest.Serve(tasktest.NewModel(os.Args[2]))
		defer s.Close()
		fmt.Println(s.BaseURL())
		// Serve until the script closes our stdin (or exits).
		_, _ = io.Copy(io.Discard, bufio.NewReader(os.Stdin))
	case "trim":
		status := 0
		for _, f := range os.Args[2:] {
			if err := trim(f); err != nil {
				fmt.Fprintln(os.Stderr, "shots trim:", err)
				status = 1
			}
		}
		os.Exit(status)
	case "tile":
		if len(os.Args) < 3 {
			usage()
		}
		h, err := strconv.Atoi(os.Args[2])
		if err != nil || h <= 0 {
			usage()
		}
		status := 0
		for _, f := range os.Args[3:] {
			if err := tile(f, h); err != nil {
				fmt.Fprintln(os.Stderr, "shots tile:", err)
				status = 1
			}
		}
		os.Exit(status)
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: shots serve TEXT | shots trim PNG... | shots tile HEIGHT PNG...")
	os.Exit(2)
}

// trim rewrites the PNG at path without its uniform bottom rows.
func trim(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	b := img.Bounds()
	bottom := lastContentRow(img)
	cut := min(bottom+1+16, b.Max.Y)
	if cut >= b.Max.Y {
		return nil
	}
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), cut-b.Min.Y))
	draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
	w, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(w, out); err != nil {
		w.Close()
		return fmt.Errorf("%s: %v", path, err)
	}
	return w.Close()
}

// lastContentRow is the lowest row holding a pixel that differs from the
// image's bottom-left pixel (the page background below the content).
func lastContentRow(img image.Image) int {
	b := img.Bounds()
	bg := img.At(b.Min.X, b.Max.Y-1)
	br, bgc, bb, ba := bg.RGBA()
	for y := b.Max.Y - 1; y >= b.Min.Y; y-- {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			if r != br || g != bgc || bl != bb || a != ba {
				return y
			}
		}
	}
	return b.Min.Y
}

// tile writes the image at path in pieces h px high beside it.
func tile(path string, h int) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	b := img.Bounds()
	base := strings.TrimSuffix(path, ".png")
	for i, y := 1, b.Min.Y; y < b.Max.Y; i, y = i+1, y+h {
		r := image.Rect(b.Min.X, y, b.Max.X, min(y+h, b.Max.Y))
		out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
		draw.Draw(out, out.Bounds(), img, r.Min, draw.Src)
		w, err := os.Create(fmt.Sprintf("%s.tile-%02d.png", base, i))
		if err != nil {
			return err
		}
		if err := png.Encode(w, out); err != nil {
			w.Close()
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
	}
	return nil
}
