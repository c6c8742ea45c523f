package upload

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
)

// The files of the tests are made here, small and real: images by the
// standard library's encoders, PDFs object by object with a correct
// cross-reference table, and the hostile variants by changing them.

// testImage is a w×h image, its left half red and its right half blue,
// so a turn shows where the halves went.
func testImage(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{200, 20, 20, 255}
			if x >= w/2 {
				c = color.RGBA{20, 20, 200, 255}
			}
			img.Set(x, y, c)
		}
	}
	return img
}

func jpegFile(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, testImage(w, h), &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func pngFile(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, testImage(w, h)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withSegments inserts JPEG segments (marker, payload) right after SOI.
func withSegments(jpg []byte, segs ...[]byte) []byte {
	out := append([]byte{}, jpg[:2]...)
	for _, s := range segs {
		out = append(out, s...)
	}
	return append(out, jpg[2:]...)
}

// segment is one JPEG segment: FF marker, length, payload.
func segment(marker byte, payload []byte) []byte {
	s := []byte{0xFF, marker, 0, 0}
	binary.BigEndian.PutUint16(s[2:], uint16(len(payload)+2))
	return append(s, payload...)
}

// exifSegment is an APP1 EXIF segment whose first IFD holds the
// orientation and an ImageDescription naming where the photo was taken
// (what re-encoding must drop).
func exifSegment(orientation uint16, secret string) []byte {
	var t bytes.Buffer
	t.WriteString("II*\x00")
	_ = binary.Write(&t, binary.LittleEndian, uint32(8))
	_ = binary.Write(&t, binary.LittleEndian, uint16(2))
	// Orientation: SHORT, count 1, value in the entry.
	_ = binary.Write(&t, binary.LittleEndian, []uint16{0x0112, 3})
	_ = binary.Write(&t, binary.LittleEndian, uint32(1))
	_ = binary.Write(&t, binary.LittleEndian, []uint16{orientation, 0})
	// ImageDescription: ASCII at an offset after the IFD.
	desc := secret + "\x00"
	_ = binary.Write(&t, binary.LittleEndian, []uint16{0x010E, 2})
	_ = binary.Write(&t, binary.LittleEndian, uint32(len(desc)))
	_ = binary.Write(&t, binary.LittleEndian, uint32(8+2+2*12+4))
	_ = binary.Write(&t, binary.LittleEndian, uint32(0)) // no next IFD
	t.WriteString(desc)
	return segment(0xE1, append([]byte("Exif\x00\x00"), t.Bytes()...))
}

// pngChunk is one PNG chunk with its CRC.
func pngChunk(typ string, data []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(append([]byte(typ), data...)))
}

// pngBomb is a valid PNG of a few dozen bytes whose header claims w×h
// pixels (its one IDAT holds a few rows of zeros).
func pngBomb(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 2, 0, 0, 0) // 8-bit RGB
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(make([]byte, 1024))
	_ = zw.Close()
	out := append([]byte{}, magicPNG...)
	out = append(out, pngChunk("IHDR", ihdr)...)
	out = append(out, pngChunk("IDAT", z.Bytes())...)
	return append(out, pngChunk("IEND", nil)...)
}

// jpegBomb is a small JPEG whose frame header claims w×h pixels.
func jpegBomb(t testing.TB, w, h uint16) []byte {
	b := jpegFile(t, 16, 16)
	i := bytes.Index(b, []byte{0xFF, 0xC0}) // baseline SOF0
	if i < 0 {
		t.Fatal("no SOF0")
	}
	out := append([]byte{}, b...)
	binary.BigEndian.PutUint16(out[i+5:], h)
	binary.BigEndian.PutUint16(out[i+7:], w)
	return out
}

// pdfFile builds a PDF from object bodies (object n is objs[n-1]), with
// a cross-reference table and a trailer whose root is object 1.
func pdfFile(objs ...string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// streamObj is a stream object body with its /Length.
func streamObj(dict string, data []byte) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

func deflate(b []byte) []byte {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return z.Bytes()
}

// objStm is an object stream holding the given objects as numbers from
// first on, Flate-compressed.
func objStm(first int, objs ...string) string {
	var head, body strings.Builder
	for i, o := range objs {
		fmt.Fprintf(&head, "%d %d ", first+i, body.Len())
		body.WriteString(o + "\n")
	}
	data := head.String() + body.String()
	return streamObj(fmt.Sprintf("/Type /ObjStm /N %d /First %d /Filter /FlateDecode", len(objs), head.Len()), deflate([]byte(data)))
}

// plainPDF is a one-page PDF with a Flate-compressed content stream.
func plainPDF(extraCatalog string) []byte {
	content := deflate([]byte("BT /F1 24 Tf 72 720 Td (Certificate of registration) Tj ET"))
	return pdfFile(
		"<< /Type /Catalog /Pages 2 0 R "+extraCatalog+" >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		streamObj("/Filter /FlateDecode", content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	)
}
