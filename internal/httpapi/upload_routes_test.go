package httpapi

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/upload"
	"tenger/internal/upload/diskstore"
)

// uploadEnv is the profile env with the upload routes mounted beside the
// profile's (as ProfileArea mounts them), on the local file adapter.
func uploadEnv(t *testing.T, o upload.Options) *profEnv {
	t.Helper()
	p := newProfEnv(t)
	files, err := diskstore.Open(filepath.Join(t.TempDir(), "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	o.Store, o.Files, o.Now, o.Log = p.st, files, p.clock.Now, zerolog.Nop()
	mux := http.NewServeMux()
	Mount(mux, p.h.(*Router), NewUploadRouter(upload.New(o), Options{Log: zerolog.Nop(), Now: p.clock.Now, Sessions: AuthSessions(p.svc)}))
	p.h = mux
	return p
}

// formPart is one part of a multipart body.
type formPart struct {
	field, filename, ctype string
	data                   []byte
}

func multipartBody(t *testing.T, parts ...formPart) (*bytes.Buffer, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		cd := `form-data; name="` + p.field + `"`
		if p.filename != "" {
			cd += `; filename="` + p.filename + `"`
		}
		h.Set("Content-Disposition", cd)
		if p.ctype != "" {
			h.Set("Content-Type", p.ctype)
		}
		w, err := mw.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(p.data)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return &b, mw.FormDataContentType()
}

func (p *profEnv) send(t *testing.T, method, target string, body io.Reader, ctype string, a authMode) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, body)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if a.header != "" {
		req.Header.Set(HeaderToken, a.header)
	}
	if a.cookie != "" {
		req.AddCookie(&http.Cookie{Name: CookieToken, Value: a.cookie})
	}
	if a.xsrf {
		v := XSRFToken(a.cookie)
		req.AddCookie(&http.Cookie{Name: CookieXSRF, Value: v})
		req.Header.Set(HeaderXSRF, v)
	}
	rec := httptest.NewRecorder()
	p.h.ServeHTTP(rec, req)
	return rec
}

// upload posts one file part and returns the envelope.
func (p *profEnv) upload(t *testing.T, target string, part formPart, a authMode) (*httptest.ResponseRecorder, Envelope) {
	t.Helper()
	body, ct := multipartBody(t, part)
	rec := p.send(t, http.MethodPost, target, body, ct, a)
	var env Envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("%s: not an envelope (%d): %q", target, rec.Code, rec.Body.String())
	}
	if rec.Code >= 500 {
		t.Fatalf("%s: HTTP %d %+v", target, rec.Code, env)
	}
	return rec, env
}

func envelopeOf(t *testing.T, rec *httptest.ResponseRecorder) Envelope {
	t.Helper()
	var env Envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("not an envelope (%d): %q", rec.Code, rec.Body.String())
	}
	return env
}

// pngWithText is a PNG carrying a tEXt chunk (metadata re-encoding drops).
func pngWithText(t *testing.T, w, h int, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	raw := b.Bytes()
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(text)))
	chunk = append(chunk, "tEXt"+text...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE([]byte("tEXt"+text)))
	const afterIHDR = 8 + 25
	return append(append(append([]byte{}, raw[:afterIHDR]...), chunk...), raw[afterIHDR:]...)
}

const testPDF = "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\nstartxref\n9\n%%EOF\n"

// The owner uploads and reads back; another user gets not-found, an
// anonymous caller the sign-in answer, a cookie without its anti-forgery
// header the forbidden answer.
func TestUploadRoutesJourney(t *testing.T) {
	p := uploadEnv(t, upload.Options{})
	p.signUp(t, "kyc@example.com", "Passw0rd!x")
	tok := p.signIn(t, "kyc@example.com", "Passw0rd!x")
	p.signUp(t, "other@example.com", "Passw0rd!y")
	other := p.signIn(t, "other@example.com", "Passw0rd!y")

	img := pngWithText(t, 40, 30, "Comment\x00taken at home, 47.91N 106.91E")
	rec, env := p.upload(t, PathUploadImg, formPart{"file", "../../etc/passwd.png", "text/html", img}, hdr(tok))
	if env.Code != apperr.CodeOK {
		t.Fatalf("upload: %d %+v", rec.Code, env)
	}
	d := env.Data.(map[string]any)
	id := d["id"].(string)
	if !upload.ValidKey(id) || d["contentType"] != "image/png" || d["width"].(float64) != 40 || d["purpose"] != "image" ||
		d["imageType"].(float64) != 0 || d["url"] != PathUploadFile+"?id="+id {
		t.Fatalf("answer %+v", d)
	}

	get := PathUploadFile + "?id=" + id
	rec = p.send(t, http.MethodGet, get, nil, "", hdr(tok))
	if rec.Code != http.StatusOK {
		t.Fatalf("owner read: %d %s", rec.Code, rec.Body.String())
	}
	for h, want := range map[string]string{
		"Content-Type": "image/png", "Content-Disposition": `inline; filename="` + id + `.png"`,
		"X-Content-Type-Options": "nosniff", "Cache-Control": "private, no-store",
		"Content-Length": strconv.FormatInt(int64(d["size"].(float64)), 10),
	} {
		if got := rec.Header().Get(h); got != want {
			t.Errorf("%s: %q, want %q", h, got, want)
		}
	}
	if !strings.Contains(rec.Header().Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("CSP %q", rec.Header().Get("Content-Security-Policy"))
	}
	if bytes.Contains(rec.Body.Bytes(), []byte("47.91N")) || bytes.Contains(rec.Body.Bytes(), []byte("tEXt")) {
		t.Fatal("the served image kept its text metadata")
	}
	if _, err := png.Decode(bytes.NewReader(rec.Body.Bytes())); err != nil {
		t.Fatalf("served image: %v", err)
	}
	if head := p.send(t, http.MethodHead, get, nil, "", hdr(tok)); head.Code != http.StatusOK || head.Body.Len() != 0 {
		t.Fatalf("HEAD: %d, %d bytes", head.Code, head.Body.Len())
	}

	// Another user's read answers exactly as an unknown id does.
	theirs := p.send(t, http.MethodGet, get, nil, "", hdr(other))
	unknown := p.send(t, http.MethodGet, PathUploadFile+"?id="+upload.NewID(), nil, "", hdr(other))
	if theirs.Code != http.StatusNotFound || envelopeOf(t, theirs).Code != apperr.CodeUploadNotFound ||
		theirs.Body.String() != unknown.Body.String() {
		t.Fatalf("other user's read: %d %s (unknown id: %s)", theirs.Code, theirs.Body.String(), unknown.Body.String())
	}
	if rec := p.send(t, http.MethodGet, PathUploadFile+"?id=../secret.key", nil, "", hdr(tok)); envelopeOf(t, rec).Code != apperr.CodeUploadNotFound {
		t.Fatalf("path in id: %s", rec.Body.String())
	}
	if rec := p.send(t, http.MethodGet, PathUploadFile, nil, "", hdr(tok)); envelopeOf(t, rec).Code != apperr.CodeParam {
		t.Fatalf("no id: %s", rec.Body.String())
	}

	// Anonymous: the sign-in answer, for reads and uploads alike.
	if rec := p.send(t, http.MethodGet, get, nil, "", authMode{}); envelopeOf(t, rec).Code != apperr.CodeNotSignedIn {
		t.Fatalf("anonymous read: %s", rec.Body.String())
	}
	if _, env := p.upload(t, PathUploadImg, formPart{"file", "a.png", "image/png", img}, authMode{}); env.Code != apperr.CodeNotSignedIn {
		t.Fatalf("anonymous upload: %+v", env)
	}
	if _, env := p.upload(t, PathUploadImgAuth+"?imageType=2", formPart{"file", "a.png", "image/png", img}, authMode{}); env.Code != apperr.CodeNotSignedIn {
		t.Fatalf("anonymous upload_img_auth: %+v", env)
	}
	// The session cookie alone (what another site's form or <img> sends)
	// is refused; with the anti-forgery header it is the owner.
	if rec := p.send(t, http.MethodGet, get, nil, "", authMode{cookie: tok}); envelopeOf(t, rec).Code != apperr.CodeForbidden {
		t.Fatalf("cookie without anti-forgery header: %s", rec.Body.String())
	}
	if _, env := p.upload(t, PathUploadImg, formPart{"file", "a.png", "image/png", img}, authMode{cookie: tok}); env.Code != apperr.CodeForbidden {
		t.Fatalf("cookie upload without anti-forgery header: %+v", env)
	}
	if rec := p.send(t, http.MethodGet, get, nil, "", authMode{cookie: tok, xsrf: true}); rec.Code != http.StatusOK {
		t.Fatalf("cookie with anti-forgery header: %d", rec.Code)
	}
	if rec := p.send(t, http.MethodPost, get, nil, "", hdr(tok)); rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST to the read route: %d", rec.Code)
	}
}

func TestUploadImgAuthPurposes(t *testing.T) {
	p := uploadEnv(t, upload.Options{})
	p.signUp(t, "corp@example.com", "Passw0rd!x")
	tok := p.signIn(t, "corp@example.com", "Passw0rd!x")
	pdf := formPart{"file", "certificate.pdf", "application/pdf", []byte(testPDF)}

	_, env := p.upload(t, PathUploadImgAuth+"?imageType=2", pdf, hdr(tok))
	if env.Code != apperr.CodeOK {
		t.Fatalf("corporate PDF: %+v", env)
	}
	d := env.Data.(map[string]any)
	if d["contentType"] != "application/pdf" || d["purpose"] != string(upload.PurposeCorporateDocument) || d["imageType"].(float64) != 2 {
		t.Fatalf("answer %+v", d)
	}
	rec := p.send(t, http.MethodGet, d["url"].(string), nil, "", hdr(tok))
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/pdf" || rec.Body.String() != testPDF {
		t.Fatalf("PDF read: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}

	for target, code := range map[string]string{
		PathUploadImgAuth + "?imageType=3": apperr.CodeUploadType, // a selfie is an image
		PathUploadImg:                      apperr.CodeUploadType,
		PathUploadImgAuth:                  apperr.CodeParam,
		PathUploadImgAuth + "?imageType=9": apperr.CodeParam,
		PathUploadImgAuth + "?imageType=x": apperr.CodeParam,
	} {
		if _, env := p.upload(t, target, pdf, hdr(tok)); env.Code != code {
			t.Errorf("%s: %s %s, want %s", target, env.Code, env.Msg, code)
		}
	}
	js := strings.Replace(testPDF, "<< /Type /Catalog >>", "<< /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >>", 1)
	if _, env := p.upload(t, PathUploadImgAuth+"?imageType=1", formPart{"file", "id.pdf", "application/pdf", []byte(js)}, hdr(tok)); env.Code != apperr.CodeUploadPDFActive {
		t.Fatalf("PDF with JavaScript: %+v", env)
	}
}

// The type is the bytes': a text file called passport.png and sent as
// image/png is refused; an empty or missing file part, or a body that is
// not multipart, is "file missing".
func TestUploadRoutesRefuse(t *testing.T) {
	p := uploadEnv(t, upload.Options{MaxBytes: 64 << 10})
	p.signUp(t, "bad@example.com", "Passw0rd!x")
	tok := p.signIn(t, "bad@example.com", "Passw0rd!x")

	if _, env := p.upload(t, PathUploadImgAuth+"?imageType=1", formPart{"file", "passport.png", "image/png", []byte("definitely a passport")}, hdr(tok)); env.Code != apperr.CodeUploadType {
		t.Fatalf("text as png: %+v", env)
	}
	if _, env := p.upload(t, PathUploadImg, formPart{"photo", "a.png", "image/png", pngWithText(t, 4, 4, "a\x00b")}, hdr(tok)); env.Code != apperr.CodeUploadFileMissing {
		t.Fatalf("no file part: %+v", env)
	}
	if _, env := p.upload(t, PathUploadImg, formPart{"file", "a.png", "image/png", nil}, hdr(tok)); env.Code != apperr.CodeUploadFileMissing {
		t.Fatalf("empty file: %+v", env)
	}
	rec := p.send(t, http.MethodPost, PathUploadImg, strings.NewReader(`{"file":"x"}`), "application/json", hdr(tok))
	if envelopeOf(t, rec).Code != apperr.CodeUploadFileMissing {
		t.Fatalf("JSON body: %s", rec.Body.String())
	}
	rec = p.send(t, http.MethodPost, PathUploadImg, strings.NewReader("--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc"), "multipart/form-data; boundary=b", hdr(tok))
	if envelopeOf(t, rec).Code != apperr.CodeUploadCorrupt {
		t.Fatalf("cut-off body: %s", rec.Body.String())
	}

	// Larger than the limit: 413 with the catalogue's code, whether the
	// body says its length or streams without one.
	big := formPart{"file", "big.png", "image/png", append(pngWithText(t, 4, 4, "a\x00b"), make([]byte, 200<<10)...)}
	rec, env := p.upload(t, PathUploadImg, big, hdr(tok))
	if rec.Code != http.StatusRequestEntityTooLarge || env.Code != apperr.CodeUploadTooLarge {
		t.Fatalf("oversize: %d %+v", rec.Code, env)
	}
	body, ct := multipartBody(t, big)
	req := httptest.NewRequest(http.MethodPost, PathUploadImg, io.MultiReader(body)) // no Content-Length
	req.Header.Set("Content-Type", ct)
	req.Header.Set(HeaderToken, tok)
	req.ContentLength = -1
	rec = httptest.NewRecorder()
	p.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge || envelopeOf(t, rec).Code != apperr.CodeUploadTooLarge {
		t.Fatalf("oversize without a length: %d %s", rec.Code, rec.Body.String())
	}
	// Large parts before the file count against the same bound.
	body, ct = multipartBody(t, formPart{"note", "", "", make([]byte, 200<<10)}, formPart{"file", "a.png", "image/png", pngWithText(t, 4, 4, "a\x00b")})
	rec = p.send(t, http.MethodPost, PathUploadImg, body, ct, hdr(tok))
	if envelopeOf(t, rec).Code != apperr.CodeUploadTooLarge {
		t.Fatalf("large field before the file: %s", rec.Body.String())
	}
}

func TestUploadRoutesRateLimited(t *testing.T) {
	p := uploadEnv(t, upload.Options{PerHour: 2})
	p.signUp(t, "many@example.com", "Passw0rd!x")
	tok := p.signIn(t, "many@example.com", "Passw0rd!x")
	part := formPart{"file", "a.png", "image/png", pngWithText(t, 4, 4, "a\x00b")}
	for i := 0; i < 2; i++ {
		if _, env := p.upload(t, PathUploadImg, part, hdr(tok)); env.Code != apperr.CodeOK {
			t.Fatalf("upload %d: %+v", i, env)
		}
	}
	rec, env := p.upload(t, PathUploadImg, part, hdr(tok))
	if rec.Code != http.StatusTooManyRequests || env.Code != apperr.CodeTooManyRequests || env.Data.(map[string]any)["retryAfter"].(float64) <= 0 {
		t.Fatalf("third upload: %d %+v", rec.Code, env)
	}
}

// The upload routes are in the OpenAPI document, signed-in only, with
// what they take and answer.
func TestUploadRoutesInOpenAPI(t *testing.T) {
	p := uploadEnv(t, upload.Options{})
	files, _ := diskstore.Open(t.TempDir())
	r := NewUploadRouter(upload.New(upload.Options{Store: p.st, Files: files}), Options{})
	b, err := json.Marshal(OpenAPI("t", "1", r.Routes()))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Summary     string
			Description string
			Security    []any
			Responses   map[string]struct{ Description string }
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for path, method := range map[string]string{PathUploadImg: "post", PathUploadImgAuth: "post", PathUploadFile: "get"} {
		op, ok := doc.Paths[path][method]
		if !ok || op.Summary == "" || len(op.Security) == 0 || op.Responses["200"].Description == "" {
			t.Errorf("%s %s: %+v", method, path, op)
		}
	}
	if d := doc.Paths[PathUploadImgAuth]["post"].Description; !strings.Contains(d, "imageType") || !strings.Contains(d, "2 corporate") {
		t.Errorf("upload_img_auth does not document imageType: %q", d)
	}
	if d := doc.Paths[PathUploadImg]["post"].Responses["200"].Description; !strings.Contains(d, "16101") || !strings.Contains(d, "10 MB") {
		t.Errorf("upload_img does not document its errors: %q", d)
	}
}
