package upload

import (
	"slices"

	"tenger/internal/apperr"
)

// Limits bound what Check accepts beyond the type.
type Limits struct {
	// MaxPixels and MaxSide bound an image's size as its header states
	// it, before any pixel is decoded.
	MaxPixels int64
	MaxSide   int
	// MaxPDFInflate bounds the bytes a PDF's compressed streams may
	// inflate to while they are checked (all streams together).
	MaxPDFInflate int64
}

// DefaultLimits admit a 24-megapixel phone photo (5712×4284) and a scan
// of an A3 page at 600 dpi (7016×9921), and keep the memory a decode
// takes to a few hundred megabytes: a progressive JPEG holds a 256-byte
// coefficient block per 8×8 pixels of each component while it decodes,
// about 300 MB at the limit in 4:4:4, and a 16-bit RGBA PNG 8 bytes a
// pixel, 200 MB.
var DefaultLimits = Limits{
	MaxPixels:     25_000_000,
	MaxSide:       10_000,
	MaxPDFInflate: 256 << 20,
}

// Checked is a file that passed Check: the bytes to store (an image
// re-encoded, a PDF as sent), their kind and an image's size in pixels.
type Checked struct {
	Kind   Kind
	Data   []byte
	Width  int
	Height int
}

// Check decides the kind of data from its bytes, refuses kinds outside
// allowed, and checks the file: images are decoded and re-encoded
// (checkImage), PDFs are inspected for active content (checkPDF). Its
// errors are the catalogue's: CodeUploadFileMissing (empty),
// CodeUploadType, CodeUploadPixels, CodeUploadCorrupt and
// CodeUploadPDFActive.
//
// A polyglot, a file that is two kinds at once, is either refused or
// neutralised: the kind is taken from the first bytes only (a PDF header
// must be at byte 0), an image keeps nothing but its pixels once
// re-encoded (a PDF, ZIP or HTML hidden in a comment, a metadata segment
// or after the end is gone), and a PDF may have nothing after %%EOF.
func Check(data []byte, allowed []Kind, lim Limits) (Checked, error) {
	if len(data) == 0 {
		return Checked{}, apperr.New(apperr.CodeUploadFileMissing)
	}
	kind := Sniff(data)
	if kind == KindUnknown || !slices.Contains(allowed, kind) {
		return Checked{}, apperr.New(apperr.CodeUploadType, kindNames(allowed))
	}
	if kind == KindPDF {
		return checkPDF(data, lim)
	}
	return checkImage(kind, data, lim)
}
