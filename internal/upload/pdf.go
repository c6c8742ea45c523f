package upload

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"

	"tenger/internal/apperr"
)

// checkPDF accepts a PDF only when nothing in it can run, open or carry
// another file, as far as the checks below can tell. PDFs are stored as
// sent: they are not rewritten (no PDF library is in the standard
// library, and rewriting one is how damaged documents get worse).
//
// What is checked:
//   - The file starts with the header "%PDF-1.x" or "%PDF-2.x" at byte 0,
//     and nothing but white space follows its last "%%EOF": a PDF with a
//     ZIP, HTML or another file appended (a polyglot) is refused.
//   - The file parses, object by object, from the header to the end: every
//     object ("n g obj ... endobj"), the cross-reference tables, trailers
//     and startxref. Each stream's extent is taken from its /Length
//     (resolved when indirect) and must end at "endstream"; a file we
//     cannot follow that way is refused as damaged, so our reading of
//     where streams are cannot drift from a reader's.
//   - Names are scanned with their #xx escapes decoded (/J#61vaScript is
//     /JavaScript), in three places: every byte outside stream data (in
//     strings too, where only a false alarm can come of it); the decoded
//     data of object streams (/Type /ObjStm, where modern PDFs keep their
//     dictionaries compressed); and, for the names of three letters or
//     more only, the raw and decoded data of every other stream. The
//     two-letter names (/JS, /AA, /3D, /RL) are left out of the last
//     because in megabytes of compressed image data they turn up by
//     chance; an action still needs its type name (/S /JavaScript,
//     /Launch ...), which is long and scanned everywhere.
//   - Refused names: scripts and actions that run or open something
//     (JavaScript, JS, Launch, SubmitForm, ImportData, GoToE, GoToR,
//     RichMedia, Rendition, Movie, Sound, 3D, XFA forms), additional-action
//     triggers (AA), attached files (EmbeddedFile, EmbeddedFiles,
//     FileAttachment), and what hides content from these checks
//     (Encrypt, and the filters not decoded here: LZW, ASCII85,
//     ASCIIHex, RunLength, Crypt and their abbreviations). /OpenAction
//     itself is allowed (it usually just opens page 1); an OpenAction
//     that runs a script is refused by the script's names.
//   - Streams are decoded with FlateDecode (and its PNG or TIFF
//     predictors) up to MaxPDFInflate bytes in all, so a compression bomb
//     is refused rather than inflated; image codecs (DCT, JPX, CCITT,
//     JBIG2) end a filter chain and their pixel data is not decoded.
//
// What is not checked: page contents are not interpreted; fonts, images
// and colour profiles are not validated or re-encoded (a viewer's font or
// image decoder bug is out of reach here); links (/URI) are allowed;
// the cross-reference offsets are not compared with where objects are
// (the scan covers every byte instead); an object a reader would find by
// a cross-reference pointing into the middle of a stream's data is seen
// only by the long-name scan. Reviewers should still open uploads in a
// viewer with scripts disabled.
func checkPDF(data []byte, lim Limits) (Checked, error) {
	if !pdfHeader.Match(data) {
		return Checked{}, apperr.New(apperr.CodeUploadCorrupt)
	}
	if !bytes.HasSuffix(bytes.TrimRight(data, pdfSpace), []byte("%%EOF")) {
		return Checked{}, apperr.New(apperr.CodeUploadCorrupt)
	}
	c := &pdfChecker{data: data, budget: lim.MaxPDFInflate}
	if err := c.run(); err != nil {
		return Checked{}, err
	}
	return Checked{Kind: KindPDF, Data: data}, nil
}

// pdfHeader is the header a PDF must start with.
var pdfHeader = regexp.MustCompile(`\A%PDF-[12]\.[0-9]`)

// pdfSpace are PDF's white-space characters.
const pdfSpace = "\x00\t\n\f\r "

// refusedNames are the names a PDF may not contain (checkPDF says why).
var refusedNames = map[string]bool{
	"JavaScript": true, "JS": true, "Launch": true, "SubmitForm": true, "ImportData": true,
	"GoToE": true, "GoToR": true, "RichMedia": true, "Rendition": true, "Movie": true, "Sound": true,
	"3D": true, "XFA": true, "AA": true,
	"EmbeddedFile": true, "EmbeddedFiles": true, "FileAttachment": true,
	"Encrypt": true, "Crypt": true,
	"LZWDecode": true, "LZW": true, "ASCII85Decode": true, "A85": true,
	"ASCIIHexDecode": true, "AHx": true, "RunLengthDecode": true, "RL": true,
}

// shortName is the longest name left out of the scan of stream data
// (see checkPDF).
const shortName = 2

// errPDFActive and errPDFCorrupt are the two refusals of the checker.
func errPDFActive(why string) error {
	return apperr.New(apperr.CodeUploadPDFActive).WithCause(errors.New(why))
}

func errPDFCorrupt(why string) error {
	return apperr.New(apperr.CodeUploadCorrupt).WithCause(errors.New("pdf: " + why))
}

func isPDFSpace(c byte) bool {
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

func isPDFDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// maxNameLen bounds a name as the scanner reads it: PDF limits names to
// 127 bytes, and none of the refused names is near it. Written with #xx
// escapes a name may take three times as many characters.
const (
	maxNameLen    = 127
	maxRawNameLen = 3 * maxNameLen
)

func isRegular(c byte) bool { return !isPDFSpace(c) && !isPDFDelim(c) }

// scanNames looks at every name in b ("/" and the regular characters
// after it, #xx escapes decoded) and fails on a refused one; the short
// names count only when all is true. Unless final (b ends the data), a
// name that runs to the end of b is left for the next chunk: carry is
// where it starts (len(b) when nothing is left over).
func scanNames(b []byte, all, final bool) (carry int, err error) {
	for i := 0; i < len(b); i++ {
		if b[i] != '/' {
			continue
		}
		j := i + 1
		for j < len(b) && j-i-1 <= maxRawNameLen && isRegular(b[j]) {
			j++
		}
		n := j - i - 1
		if j == len(b) && !final && n <= maxRawNameLen {
			return i, nil
		}
		if n <= maxRawNameLen {
			if name, ok := decodeName(b[i+1 : j]); ok && refusedNames[name] && (all || len(name) > shortName) {
				return 0, errPDFActive("refused name /" + name)
			}
		}
		i = j - 1
	}
	return len(b), nil
}

// decodeName decodes the #xx escapes of a name's characters; a name
// longer than maxNameLen once decoded is no refused name (ok false).
func decodeName(raw []byte) (string, bool) {
	if bytes.IndexByte(raw, '#') < 0 {
		return string(raw), len(raw) <= maxNameLen
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		if raw[i] == '#' && i+2 < len(raw) {
			if v, err := strconv.ParseUint(string(raw[i+1:i+3]), 16, 8); err == nil {
				out = append(out, byte(v))
				i += 2
				continue
			}
		}
		out = append(out, raw[i])
	}
	return string(out), len(out) <= maxNameLen
}

// pdfChecker walks a PDF's objects (checkPDF).
type pdfChecker struct {
	data []byte
	lex  pdfLexer
	// budget is what may still be inflated.
	budget int64
	// lengths are the values of the "n g obj <integer> endobj" objects,
	// by "n g" (the targets of indirect /Length); ambiguous marks numbers
	// defined twice with different values.
	lengths   map[string]int64
	ambiguous map[string]bool
	// outside are the extents of the file outside stream data, scanned
	// for every name once the walk knows them.
	outside [][2]int
	// objects and startxref count what a PDF cannot be without.
	objects, startxref int
	// zr and buf are reused from stream to stream: a file of many tiny
	// streams must not cost a decompressor and a buffer each.
	zr  io.ReadCloser
	buf []byte
}

// maxPDFDepth bounds the nesting of arrays and dictionaries.
const maxPDFDepth = 64

func (c *pdfChecker) run() error {
	c.lex = pdfLexer{b: c.data}
	from := 0
	for {
		t, err := c.lex.next()
		if err != nil {
			return err
		}
		switch {
		case t.kind == tokEOF:
			if c.objects == 0 || c.startxref == 0 {
				return errPDFCorrupt("no objects or no startxref")
			}
			c.outside = append(c.outside, [2]int{from, len(c.data)})
			for _, r := range c.outside {
				if _, err := scanNames(c.data[r[0]:r[1]], true, true); err != nil {
					return err
				}
			}
			return nil
		case t.kind == tokRegular && isInteger(t.text):
			start, end, err := c.object()
			if err != nil {
				return err
			}
			c.objects++
			if end > start {
				c.outside = append(c.outside, [2]int{from, start})
				from = end
			}
		case t.is("xref"):
			if err := c.xrefTable(); err != nil {
				return err
			}
		case t.is("trailer"):
			v, err := c.value(0)
			if err != nil {
				return err
			}
			if _, ok := v.(pdfDict); !ok {
				return errPDFCorrupt("trailer without a dictionary")
			}
		case t.is("startxref"):
			if n, err := c.lex.next(); err != nil || n.kind != tokRegular || !isInteger(n.text) {
				return errPDFCorrupt("startxref without an offset")
			}
			c.startxref++
		default:
			return errPDFCorrupt(fmt.Sprintf("unexpected %q between objects at %d", t.text, t.pos))
		}
	}
}

// object reads "g obj value endobj" after an object number, and a
// stream's data when the value is followed by "stream". It returns the
// extent of the stream's data (start == end when there is none).
func (c *pdfChecker) object() (start, end int, err error) {
	g, err := c.lex.next()
	if err != nil {
		return 0, 0, err
	}
	kw, err := c.lex.next()
	if err != nil {
		return 0, 0, err
	}
	if g.kind != tokRegular || !isInteger(g.text) || !kw.is("obj") {
		return 0, 0, errPDFCorrupt(fmt.Sprintf("object header expected at %d", g.pos))
	}
	v, err := c.value(0)
	if err != nil {
		return 0, 0, err
	}
	t, err := c.lex.next()
	if err != nil {
		return 0, 0, err
	}
	if t.is("stream") {
		d, ok := v.(pdfDict)
		if !ok {
			return 0, 0, errPDFCorrupt("stream without a dictionary")
		}
		if start, end, err = c.stream(d); err != nil {
			return 0, 0, err
		}
		if t, err = c.lex.next(); err != nil {
			return 0, 0, err
		}
	}
	if !t.is("endobj") {
		return 0, 0, errPDFCorrupt(fmt.Sprintf("endobj expected at %d", t.pos))
	}
	return start, end, nil
}

// stream takes the data of a stream whose dictionary is d, the lexer
// standing just after the "stream" keyword, checks it and moves past
// "endstream".
func (c *pdfChecker) stream(d pdfDict) (start, end int, err error) {
	p := c.lex.i
	// The keyword is followed by CRLF or LF, never CR alone (ISO 32000).
	switch {
	case bytes.HasPrefix(c.data[p:], []byte("\r\n")):
		p += 2
	case bytes.HasPrefix(c.data[p:], []byte("\n")):
		p++
	default:
		return 0, 0, errPDFCorrupt("stream keyword without its end of line")
	}
	n, err := c.length(d["Length"])
	if err != nil {
		return 0, 0, err
	}
	if n < 0 || n > int64(len(c.data)-p) {
		return 0, 0, errPDFCorrupt("stream length beyond the file")
	}
	start, end = p, p+int(n)
	c.lex.i = end
	if t, err := c.lex.next(); err != nil || !t.is("endstream") {
		return 0, 0, errPDFCorrupt("stream data does not end where its /Length says")
	}
	return start, end, c.streamData(d, c.data[start:end])
}

// length resolves a stream's /Length: an integer, or a reference to an
// "n g obj <integer> endobj" defined once (or always with that value).
func (c *pdfChecker) length(v pdfValue) (int64, error) {
	switch x := v.(type) {
	case pdfNumber:
		if n, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return n, nil
		}
	case pdfRef:
		if c.lengths == nil {
			c.indexLengths()
		}
		if n, ok := c.lengths[string(x)]; ok && !c.ambiguous[string(x)] {
			return n, nil
		}
	}
	return 0, errPDFCorrupt("stream without a usable /Length")
}

// lengthObject finds the objects that are a bare integer.
var lengthObject = regexp.MustCompile(`(?:^|[\x00\t\n\f\r ])(\d+)[\x00\t\n\f\r ]+(\d+)[\x00\t\n\f\r ]+obj[\x00\t\n\f\r ]*(\d+)[\x00\t\n\f\r ]*endobj`)

func (c *pdfChecker) indexLengths() {
	c.lengths, c.ambiguous = map[string]int64{}, map[string]bool{}
	for _, m := range lengthObject.FindAllSubmatch(c.data, -1) {
		ref := refKey(string(m[1]), string(m[2]))
		n, err := strconv.ParseInt(string(m[3]), 10, 64)
		if err != nil {
			c.ambiguous[ref] = true
			continue
		}
		if old, ok := c.lengths[ref]; ok && old != n {
			c.ambiguous[ref] = true
		}
		c.lengths[ref] = n
	}
}

func refKey(num, gen string) string {
	n, _ := strconv.ParseInt(num, 10, 64)
	g, _ := strconv.ParseInt(gen, 10, 64)
	return strconv.FormatInt(n, 10) + " " + strconv.FormatInt(g, 10)
}

// streamData decodes a stream's data through its filters and scans what
// comes out: all names in object streams, the long names elsewhere. The
// raw data is scanned for the long names too, whatever its filters.
func (c *pdfChecker) streamData(d pdfDict, raw []byte) error {
	if _, err := scanNames(raw, false, true); err != nil {
		return err
	}
	filters, parms, err := filterChain(d)
	if err != nil {
		return err
	}
	var r io.Reader = bytes.NewReader(raw)
	decoded, inflating := true, false
	for i, f := range filters {
		switch f {
		case "FlateDecode", "Fl":
			zr, err := c.inflate(r, inflating)
			inflating = true
			if err != nil {
				return errPDFCorrupt("flate stream: " + err.Error())
			}
			r = &budgetReader{r: zr, left: &c.budget}
			if r, err = predictor(r, parms[i]); err != nil {
				return err
			}
		case "DCTDecode", "DCT", "JPXDecode", "CCITTFaxDecode", "CCF", "JBIG2Decode":
			// Image codecs yield pixels, never PDF syntax, so a chain
			// ends with them; what they encode is not decoded here.
			if i != len(filters)-1 {
				return errPDFActive("filter after an image codec")
			}
			decoded = false
		default:
			return errPDFActive("stream filter not decoded here: " + f)
		}
		if !decoded {
			break
		}
	}
	if !decoded {
		return nil
	}
	if len(filters) == 0 {
		// Unfiltered data was scanned above; an object stream is
		// scanned again for every name.
		if d.name("Type") == "ObjStm" {
			_, err := scanNames(raw, true, true)
			return err
		}
		return nil
	}
	if c.buf == nil {
		c.buf = make([]byte, 64<<10)
	}
	return scanReader(r, d.name("Type") == "ObjStm", c.buf)
}

// inflate returns a zlib reader of r, reusing the checker's decompressor
// from stream to stream. The second Flate filter of one chain (rare, but
// legal) gets a new one, the first being busy feeding it.
func (c *pdfChecker) inflate(r io.Reader, second bool) (io.Reader, error) {
	if second || c.zr == nil {
		zr, err := zlib.NewReader(r)
		if err != nil {
			return nil, err
		}
		if !second {
			c.zr = zr
		}
		return zr, nil
	}
	if err := c.zr.(zlib.Resetter).Reset(r, nil); err != nil {
		return nil, err
	}
	return c.zr, nil
}

// filterChain reads /Filter and /DecodeParms: a name or an array of
// names, with a dictionary (or null) or an array of them. Indirect
// filters are refused: they would hide the chain from this check.
func filterChain(d pdfDict) ([]string, []pdfDict, error) {
	var filters []string
	switch f := d["Filter"].(type) {
	case nil:
	case pdfName:
		filters = []string{string(f)}
	case pdfArray:
		for _, v := range f {
			n, ok := v.(pdfName)
			if !ok {
				return nil, nil, errPDFActive("filter that is not a name")
			}
			filters = append(filters, string(n))
		}
	default:
		return nil, nil, errPDFActive("indirect or malformed /Filter")
	}
	parms := make([]pdfDict, len(filters))
	switch p := d["DecodeParms"].(type) {
	case nil:
	case pdfDict:
		if len(parms) > 0 {
			parms[0] = p
		}
	case pdfArray:
		for i, v := range p {
			if i >= len(parms) {
				break
			}
			switch x := v.(type) {
			case pdfDict:
				parms[i] = x
			case pdfKeyword: // null
			default:
				return nil, nil, errPDFActive("malformed /DecodeParms")
			}
		}
	default:
		return nil, nil, errPDFActive("indirect or malformed /DecodeParms")
	}
	return filters, parms, nil
}

// scanReader scans decoded stream data chunk by chunk through buf,
// carrying a name cut at a chunk's end over to the next.
func scanReader(r io.Reader, all bool, buf []byte) error {
	have := 0
	for {
		n, err := io.ReadFull(r, buf[have:])
		have += n
		final := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !final {
			var ae *apperr.Error
			if errors.As(err, &ae) {
				return err
			}
			return errPDFCorrupt("stream data: " + err.Error())
		}
		carry, serr := scanNames(buf[:have], all, final)
		if serr != nil {
			return serr
		}
		if final {
			return nil
		}
		have = copy(buf, buf[carry:have])
	}
}

// budgetReader fails once the checker's inflate budget is spent.
type budgetReader struct {
	r    io.Reader
	left *int64
}

func (b *budgetReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	*b.left -= int64(n)
	if *b.left < 0 {
		return n, errPDFActive("compressed streams inflate beyond the limit")
	}
	return n, err
}

// predictor undoes a FlateDecode predictor: PNG (10–15, a filter byte
// before each row) or TIFF 2 (horizontal differences, 8 bits per
// component only). Without one, r is returned as it is.
func predictor(r io.Reader, parms pdfDict) (io.Reader, error) {
	if parms == nil {
		return r, nil
	}
	pred := parms.int("Predictor", 1)
	if pred == 1 {
		return r, nil
	}
	colors, bpc, cols := parms.int("Colors", 1), parms.int("BitsPerComponent", 8), parms.int("Columns", 1)
	if colors < 1 || colors > 32 || cols < 1 || cols > 1<<20 || (bpc != 1 && bpc != 2 && bpc != 4 && bpc != 8 && bpc != 16) {
		return nil, errPDFActive("predictor parameters out of range")
	}
	bpp := max(1, int(colors*bpc+7)/8)
	rowLen := int((colors*bpc*cols + 7) / 8)
	switch {
	case pred == 2:
		if bpc != 8 {
			return nil, errPDFActive("TIFF predictor with other than 8 bits per component")
		}
		return &rowReader{r: bufio.NewReader(r), rowLen: rowLen, bpp: bpp, tiff: true}, nil
	case pred >= 10 && pred <= 15:
		return &rowReader{r: bufio.NewReader(r), rowLen: rowLen, bpp: bpp}, nil
	}
	return nil, errPDFActive("unknown predictor")
}

// rowReader decodes predicted rows one at a time.
type rowReader struct {
	r       io.Reader
	rowLen  int
	bpp     int
	tiff    bool
	prev    []byte
	cur     []byte
	pending []byte
}

func (p *rowReader) Read(b []byte) (int, error) {
	for len(p.pending) == 0 {
		if err := p.row(); err != nil {
			return 0, err
		}
	}
	n := copy(b, p.pending)
	p.pending = p.pending[n:]
	return n, nil
}

func (p *rowReader) row() error {
	if p.prev == nil {
		p.prev, p.cur = make([]byte, p.rowLen), make([]byte, p.rowLen)
	}
	p.prev, p.cur = p.cur, p.prev
	if p.tiff {
		n, err := io.ReadFull(p.r, p.cur)
		if n == 0 {
			return eofOf(err)
		}
		for i := p.bpp; i < n; i++ {
			p.cur[i] += p.cur[i-p.bpp]
		}
		p.pending = p.cur[:n]
		return nil
	}
	var ft [1]byte
	if _, err := io.ReadFull(p.r, ft[:]); err != nil {
		return eofOf(err)
	}
	n, err := io.ReadFull(p.r, p.cur)
	if n == 0 {
		return eofOf(err)
	}
	cur, prev := p.cur[:n], p.prev
	for i := range cur {
		var left, up, upLeft byte
		if i >= p.bpp {
			left, upLeft = cur[i-p.bpp], prev[i-p.bpp]
		}
		up = prev[i]
		switch ft[0] {
		case 0:
		case 1:
			cur[i] += left
		case 2:
			cur[i] += up
		case 3:
			cur[i] += byte((int(left) + int(up)) / 2)
		case 4:
			cur[i] += paeth(left, up, upLeft)
		default:
			return errPDFCorrupt("unknown PNG row filter")
		}
	}
	p.pending = cur
	return nil
}

// eofOf turns a short final read into the end of the data.
func eofOf(err error) error {
	if err == io.ErrUnexpectedEOF || err == nil {
		return io.EOF
	}
	return err
}

func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := abs(p-int(a)), abs(p-int(b)), abs(p-int(c))
	switch {
	case pa <= pb && pa <= pc:
		return a
	case pb <= pc:
		return b
	}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// xrefTable skips a cross-reference table: subsection headers and
// entries, integers and the keywords n and f, up to "trailer".
func (c *pdfChecker) xrefTable() error {
	for {
		save := c.lex.i
		t, err := c.lex.next()
		if err != nil {
			return err
		}
		switch {
		case t.kind == tokRegular && (isInteger(t.text) || t.is("n") || t.is("f")):
		case t.is("trailer"):
			c.lex.i = save
			return nil
		default:
			return errPDFCorrupt("malformed cross-reference table")
		}
	}
}

// PDF values, as far as the checker needs them.
type (
	pdfValue   any
	pdfName    string
	pdfNumber  string
	pdfKeyword string
	pdfString  struct{}
	pdfRef     string // "n g"
	pdfArray   []pdfValue
	pdfDict    map[string]pdfValue
)

func (d pdfDict) name(key string) string {
	n, _ := d[key].(pdfName)
	return string(n)
}

func (d pdfDict) int(key string, def int64) int64 {
	if n, ok := d[key].(pdfNumber); ok {
		if v, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return v
		}
	}
	return def
}

// value reads one value: a dictionary, array, name, string, number,
// keyword (true, false, null) or reference (n g R).
func (c *pdfChecker) value(depth int) (pdfValue, error) {
	if depth > maxPDFDepth {
		return nil, errPDFCorrupt("nesting too deep")
	}
	t, err := c.lex.next()
	if err != nil {
		return nil, err
	}
	switch t.kind {
	case tokDictOpen:
		d := pdfDict{}
		for {
			k, err := c.lex.next()
			if err != nil {
				return nil, err
			}
			if k.kind == tokDictClose {
				return d, nil
			}
			if k.kind != tokName {
				return nil, errPDFCorrupt(fmt.Sprintf("dictionary key expected at %d", k.pos))
			}
			v, err := c.value(depth + 1)
			if err != nil {
				return nil, err
			}
			d[k.text] = v
		}
	case tokArrayOpen:
		var a pdfArray
		for {
			save := c.lex.i
			t, err := c.lex.next()
			if err != nil {
				return nil, err
			}
			if t.kind == tokArrayClose {
				return a, nil
			}
			c.lex.i = save
			v, err := c.value(depth + 1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
	case tokName:
		return pdfName(t.text), nil
	case tokString:
		return pdfString{}, nil
	case tokRegular:
		if isInteger(t.text) {
			// n g R is a reference; look two tokens ahead.
			save := c.lex.i
			g, err1 := c.lex.next()
			r, err2 := c.lex.next()
			if err1 == nil && err2 == nil && g.kind == tokRegular && isInteger(g.text) && r.is("R") {
				return pdfRef(refKey(t.text, g.text)), nil
			}
			c.lex.i = save
			return pdfNumber(t.text), nil
		}
		if isNumber(t.text) {
			return pdfNumber(t.text), nil
		}
		switch t.text {
		case "true", "false", "null":
			return pdfKeyword(t.text), nil
		}
	}
	return nil, errPDFCorrupt(fmt.Sprintf("unexpected %q at %d", t.text, t.pos))
}

func isInteger(s string) bool {
	if s == "" || len(s) > 19 {
		return false
	}
	if s[0] == '+' || s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isNumber(s string) bool {
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			dots++
		case (c == '+' || c == '-') && i == 0:
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}

// Token kinds of the lexer.
const (
	tokEOF = iota
	tokRegular
	tokName
	tokString
	tokDictOpen
	tokDictClose
	tokArrayOpen
	tokArrayClose
)

type pdfToken struct {
	kind int
	text string
	pos  int
}

func (t pdfToken) is(kw string) bool { return t.kind == tokRegular && t.text == kw }

// pdfLexer splits PDF syntax into tokens (ISO 32000-1 §7.2): comments and
// white space are skipped; strings are read with their nesting and
// escapes, so a ")" or "endobj" inside one ends nothing.
type pdfLexer struct {
	b []byte
	i int
}

func (l *pdfLexer) next() (pdfToken, error) {
	for l.i < len(l.b) {
		c := l.b[l.i]
		if isPDFSpace(c) {
			l.i++
			continue
		}
		if c == '%' {
			for l.i < len(l.b) && l.b[l.i] != '\n' && l.b[l.i] != '\r' {
				l.i++
			}
			continue
		}
		break
	}
	start := l.i
	if l.i >= len(l.b) {
		return pdfToken{kind: tokEOF, pos: start}, nil
	}
	switch c := l.b[l.i]; c {
	case '(':
		depth := 0
		for ; l.i < len(l.b); l.i++ {
			switch l.b[l.i] {
			case '\\':
				l.i++
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					l.i++
					return pdfToken{kind: tokString, pos: start}, nil
				}
			}
		}
		return pdfToken{}, errPDFCorrupt("unterminated string")
	case '<':
		if l.i+1 < len(l.b) && l.b[l.i+1] == '<' {
			l.i += 2
			return pdfToken{kind: tokDictOpen, text: "<<", pos: start}, nil
		}
		end := bytes.IndexByte(l.b[l.i:], '>')
		if end < 0 {
			return pdfToken{}, errPDFCorrupt("unterminated hex string")
		}
		l.i += end + 1
		return pdfToken{kind: tokString, pos: start}, nil
	case '>':
		if l.i+1 < len(l.b) && l.b[l.i+1] == '>' {
			l.i += 2
			return pdfToken{kind: tokDictClose, text: ">>", pos: start}, nil
		}
		return pdfToken{}, errPDFCorrupt("stray >")
	case '[':
		l.i++
		return pdfToken{kind: tokArrayOpen, text: "[", pos: start}, nil
	case ']':
		l.i++
		return pdfToken{kind: tokArrayClose, text: "]", pos: start}, nil
	case '/':
		l.i++
		for l.i < len(l.b) && isRegular(l.b[l.i]) {
			l.i++
		}
		name, _ := decodeName(l.b[start+1 : l.i])
		return pdfToken{kind: tokName, text: name, pos: start}, nil
	case ')', '{', '}':
		return pdfToken{}, errPDFCorrupt(fmt.Sprintf("unexpected %q", c))
	}
	for l.i < len(l.b) && isRegular(l.b[l.i]) {
		l.i++
	}
	return pdfToken{kind: tokRegular, text: string(l.b[start:l.i]), pos: start}, nil
}
