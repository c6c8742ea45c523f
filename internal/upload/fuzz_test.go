package upload

import (
	"bytes"
	"errors"
	"image"
	"testing"

	"tenger/internal/apperr"
)

// fuzzLimits keep each run of the fuzzer small: a claimed image larger
// than these is refused from its header before any decoding.
var fuzzLimits = Limits{MaxPixels: 1 << 16, MaxSide: 1024, MaxPDFInflate: 1 << 20}

// FuzzSniff feeds the type sniffing and the checks behind it arbitrary
// bytes. Whatever the input: nothing panics; every refusal is a catalogue
// error (never an internal one); the kind Check reports is the one Sniff
// reads from the first bytes; an accepted image comes out as a valid
// file of the same kind and size with nothing the decoder would not have
// written; an accepted PDF comes out as it went in. The seed corpus in
// testdata/fuzz/FuzzSniff (valid files, polyglots, bombs, hostile PDFs)
// runs with every `go test`.
func FuzzSniff(f *testing.F) {
	f.Add(jpegFile(f, 16, 8))
	f.Add(pngFile(f, 16, 8))
	f.Add(plainPDF(""))
	f.Add(pngBomb(100000, 100000))
	f.Fuzz(func(t *testing.T, data []byte) {
		kind := Sniff(data)
		c, err := Check(data, documents, fuzzLimits)
		if err != nil {
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Entry.Code == apperr.CodeInternal {
				t.Fatalf("refusal is not a catalogue error: %v", err)
			}
			return
		}
		if c.Kind != kind || kind == KindUnknown {
			t.Fatalf("Check says %v, Sniff %v", c.Kind, kind)
		}
		switch kind {
		case KindPDF:
			if !bytes.Equal(c.Data, data) {
				t.Fatal("an accepted PDF was changed")
			}
		default:
			if Sniff(c.Data) != kind {
				t.Fatalf("re-encoded %v sniffs as %v", kind, Sniff(c.Data))
			}
			img, _, err := image.Decode(bytes.NewReader(c.Data))
			if err != nil {
				t.Fatalf("re-encoded %v does not decode: %v", kind, err)
			}
			if b := img.Bounds(); b.Dx() != c.Width || b.Dy() != c.Height {
				t.Fatalf("re-encoded %v is %v, Check says %dx%d", kind, b, c.Width, c.Height)
			}
			// The output is what the encoder wrote: checking it again
			// changes nothing but JPEG's lossy pixels.
			again, err := Check(c.Data, documents, fuzzLimits)
			if err != nil || again.Width != c.Width || again.Height != c.Height {
				t.Fatalf("re-encoded %v refused or resized on a second check: %v", kind, err)
			}
		}
	})
}
