package upload_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
	"tenger/internal/upload"
	"tenger/internal/upload/diskstore"
)

type env struct {
	dir   string
	svc   *upload.Service
	st    store.Store
	files *diskstore.Store
	log   *bytes.Buffer
	now   time.Time
}

func newEnv(t *testing.T, o upload.Options) *env {
	t.Helper()
	dir := t.TempDir()
	st, err := embedded.Open(filepath.Join(dir, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	files, err := diskstore.Open(filepath.Join(dir, "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	e := &env{dir: dir, st: st, files: files, log: &bytes.Buffer{}, now: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
	o.Store, o.Files, o.Log = st, files, zerolog.New(e.log)
	o.Now = func() time.Time { return e.now }
	e.svc = upload.New(o)
	return e
}

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func code(err error) string {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return ae.Entry.Code
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

func readAll(t *testing.T, rc io.ReadCloser) []byte {
	t.Helper()
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// An accepted file is stored under a random id with its metadata in the
// owner's partition; only the owner reads it back, and the review read
// is logged with the reviewer.
func TestAcceptAndRead(t *testing.T) {
	e := newEnv(t, upload.Options{})
	ctx := context.Background()
	orig := pngBytes(t, 30, 20)
	m, err := e.svc.Accept(ctx, "10000001", upload.PurposeCorporateDocument, bytes.NewReader(orig))
	if err != nil {
		t.Fatal(err)
	}
	if !upload.ValidKey(m.ID) || m.Owner != "10000001" || m.ContentType != "image/png" || m.Width != 30 || m.Height != 20 ||
		m.OriginalSize != int64(len(orig)) || len(m.SHA256) != 64 || m.CreatedAt != e.now.UnixMilli() ||
		m.Purpose != upload.PurposeCorporateDocument || m.Purpose.ImageType() != 2 {
		t.Fatalf("meta %+v", m)
	}
	it, err := e.st.Get(ctx, store.Key{PK: "USER#10000001", SK: "UPLOAD#" + m.ID})
	if err != nil || it.Str("ct") != "image/png" || it.Int("size") != m.Size || it.Str("purpose") != "corporate_document" {
		t.Fatalf("metadata item %v %v", it, err)
	}

	d, err := e.svc.Download(ctx, "10000001", m.ID)
	if err != nil || d.URL != "" || d.Body == nil {
		t.Fatalf("download %+v %v", d, err)
	}
	if got := readAll(t, d.Body); int64(len(got)) != m.Size {
		t.Fatalf("downloaded %d bytes, stored %d", len(got), m.Size)
	}
	if d.Meta.Disposition() != `inline; filename="`+m.ID+`.png"` {
		t.Fatalf("disposition %q", d.Meta.Disposition())
	}

	// Another user, an unknown id and a malformed one answer the same.
	for _, c := range []struct{ uid, id string }{{"10000002", m.ID}, {"10000001", upload.NewID()}, {"10000001", "../" + m.ID[3:]}, {"", m.ID}} {
		if _, err := e.svc.Download(ctx, c.uid, c.id); code(err) != apperr.CodeUploadNotFound {
			t.Errorf("download %q by %q: %v", c.id, c.uid, err)
		}
	}

	// The owner check of the verification code, with purposes.
	if _, err := e.svc.Owned(ctx, "10000001", m.ID, upload.PurposeCorporateDocument); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Owned(ctx, "10000001", m.ID, upload.PurposeIdentityDocument, upload.PurposeIdentitySelfie); code(err) != apperr.CodeUploadNotFound {
		t.Fatalf("wrong purpose: %v", err)
	}
	if _, err := e.svc.Owned(ctx, "10000002", m.ID); code(err) != apperr.CodeUploadNotFound {
		t.Fatalf("other owner: %v", err)
	}

	rm, body, err := e.svc.OpenForReview(ctx, "reviewer-7", "10000001", m.ID)
	if err != nil || rm.ID != m.ID || len(readAll(t, body)) == 0 {
		t.Fatalf("review read %v", err)
	}
	if !strings.Contains(e.log.String(), `"reviewer":"reviewer-7"`) {
		t.Fatalf("review read not logged: %s", e.log.String())
	}
	if _, _, err := e.svc.OpenForReview(ctx, "", "10000001", m.ID); err == nil {
		t.Fatal("review read without a reviewer")
	}
	if _, _, err := e.svc.OpenForReview(ctx, "reviewer-7", "10000002", m.ID); code(err) != apperr.CodeUploadNotFound {
		t.Fatalf("review read under the wrong owner: %v", err)
	}

	list, err := e.svc.List(ctx, "10000001")
	if err != nil || len(list) != 1 || list[0] != m {
		t.Fatalf("list %+v %v", list, err)
	}
}

// countingReader serves an endless body and counts what was read of it.
type countingReader struct{ n int64 }

func (c *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 0xFF
	}
	c.n += int64(len(p))
	return len(p), nil
}

// A body over the limit is refused after reading one byte more than the
// limit, never the whole of it.
func TestOversizeBodyRefusedWithoutReadingIt(t *testing.T) {
	e := newEnv(t, upload.Options{MaxBytes: 64 << 10})
	r := &countingReader{}
	_, err := e.svc.Accept(context.Background(), "10000001", upload.PurposeImage, r)
	if code(err) != apperr.CodeUploadTooLarge {
		t.Fatalf("endless body: %v", err)
	}
	if r.n > 64<<10+32<<10 {
		t.Fatalf("read %d bytes of an endless body", r.n)
	}
	if msg := apperr.As(err).Message(apperr.LangEN); msg != "The file is too large (at most 1 MB)" {
		t.Fatalf("message %q", msg)
	}
	if got := apperr.As(upload.New(upload.Options{Store: e.st, Files: e.files}).TooLarge()).Message(apperr.LangEN); got != "The file is too large (at most 10 MB)" {
		t.Fatalf("default limit message %q", got)
	}
}

// Uploads are limited per user per hour, refused ones counted too.
func TestRateLimit(t *testing.T) {
	e := newEnv(t, upload.Options{PerHour: 2})
	ctx := context.Background()
	if _, err := e.svc.Accept(ctx, "10000001", upload.PurposeImage, bytes.NewReader(pngBytes(t, 4, 4))); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Accept(ctx, "10000001", upload.PurposeImage, strings.NewReader("not an image")); code(err) != apperr.CodeUploadType {
		t.Fatal(err)
	}
	_, err := e.svc.Accept(ctx, "10000001", upload.PurposeImage, bytes.NewReader(pngBytes(t, 4, 4)))
	if code(err) != apperr.CodeTooManyRequests {
		t.Fatalf("third upload in the hour: %v", err)
	}
	if _, err := e.svc.Accept(ctx, "10000002", upload.PurposeImage, bytes.NewReader(pngBytes(t, 4, 4))); err != nil {
		t.Fatalf("another user is limited too: %v", err)
	}
	e.now = e.now.Add(time.Hour)
	if _, err := e.svc.Accept(ctx, "10000001", upload.PurposeImage, bytes.NewReader(pngBytes(t, 4, 4))); err != nil {
		t.Fatalf("next hour: %v", err)
	}
}

// The purposes take their kinds: a PDF is a document, never a selfie.
func TestPurposeKinds(t *testing.T) {
	e := newEnv(t, upload.Options{})
	pdf := []byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\nstartxref\n9\n%%EOF\n")
	ctx := context.Background()
	if _, err := e.svc.Accept(ctx, "10000001", upload.PurposeIdentityDocument, bytes.NewReader(pdf)); err != nil {
		t.Fatalf("PDF identity document: %v", err)
	}
	for _, p := range []upload.Purpose{upload.PurposeIdentitySelfie, upload.PurposeImage} {
		if _, err := e.svc.Accept(ctx, "10000001", p, bytes.NewReader(pdf)); code(err) != apperr.CodeUploadType {
			t.Errorf("PDF as %s: %v", p, err)
		}
	}
	for n, want := range map[int64]upload.Purpose{1: upload.PurposeIdentityDocument, 2: upload.PurposeCorporateDocument, 3: upload.PurposeIdentitySelfie} {
		if p, ok := upload.PurposeOfImageType(n); !ok || p != want || p.ImageType() != n {
			t.Errorf("imageType %d: %v", n, p)
		}
	}
	if _, ok := upload.PurposeOfImageType(4); ok {
		t.Error("imageType 4 has a purpose")
	}
	if _, err := e.svc.Accept(ctx, "10000001", upload.Purpose("avatar"), bytes.NewReader(pdf)); err == nil {
		t.Error("unknown purpose accepted")
	}
}

// failingStore refuses the upload metadata writes.
type failingStore struct{ store.Store }

func (f failingStore) Put(ctx context.Context, it store.Item, c store.Cond) error {
	if strings.HasPrefix(it.Str(store.AttrSK), "UPLOAD#") {
		return errors.New("store down")
	}
	return f.Store.Put(ctx, it, c)
}

// When the metadata cannot be written the stored file is deleted, so no
// file is left that nobody owns.
func TestFailedMetadataDeletesFile(t *testing.T) {
	e := newEnv(t, upload.Options{})
	svc := upload.New(upload.Options{Store: failingStore{e.st}, Files: e.files})
	if _, err := svc.Accept(context.Background(), "10000001", upload.PurposeImage, bytes.NewReader(pngBytes(t, 4, 4))); err == nil {
		t.Fatal("accepted without metadata")
	}
	entries, err := filepath.Glob(filepath.Join(e.dir, "uploads", "*"))
	if err != nil || len(entries) != 0 {
		t.Fatalf("files left: %v %v", entries, err)
	}
}
