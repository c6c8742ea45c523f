package upload

import (
	"bytes"
	"strings"
)

// Kind is a file type, decided from the file's bytes (Sniff), never from
// its name or the Content-Type the client sent: both are the client's to
// choose and say nothing about what the bytes are.
type Kind int

// The kinds an upload may be. KindUnknown is everything else (GIF, WebP,
// HEIC, text, archives ...), which no upload accepts.
const (
	KindUnknown Kind = iota
	KindJPEG
	KindPNG
	KindPDF
)

// String is the kind's name as messages show it.
func (k Kind) String() string {
	switch k {
	case KindJPEG:
		return "JPEG"
	case KindPNG:
		return "PNG"
	case KindPDF:
		return "PDF"
	}
	return "unknown"
}

// ContentType is the media type a file of this kind is stored and served
// with.
func (k Kind) ContentType() string {
	switch k {
	case KindJPEG:
		return "image/jpeg"
	case KindPNG:
		return "image/png"
	case KindPDF:
		return "application/pdf"
	}
	return "application/octet-stream"
}

// Ext is the file name extension served files are named with.
func (k Kind) Ext() string {
	switch k {
	case KindJPEG:
		return "jpg"
	case KindPNG:
		return "png"
	case KindPDF:
		return "pdf"
	}
	return "bin"
}

// kindNames lists kinds as the type-not-allowed message names them.
func kindNames(kinds []Kind) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.String()
	}
	return strings.Join(names, ", ")
}

// Magic numbers. A JPEG starts with SOI and the marker of its first
// segment; a PNG with its eight-byte signature. A PDF must start with its
// header at byte 0: readers accept it anywhere in the first 1024 bytes,
// but a file with something else before it is what a polyglot looks like,
// and no PDF writer makes one.
var (
	magicJPEG = []byte{0xFF, 0xD8, 0xFF}
	magicPNG  = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}
	magicPDF  = []byte("%PDF-")
)

// Sniff decides the kind of a file from its first bytes. It needs at most
// the first eight; a shorter head is KindUnknown unless it already holds a
// whole magic number.
func Sniff(head []byte) Kind {
	switch {
	case bytes.HasPrefix(head, magicJPEG):
		return KindJPEG
	case bytes.HasPrefix(head, magicPNG):
		return KindPNG
	case bytes.HasPrefix(head, magicPDF):
		return KindPDF
	}
	return KindUnknown
}
