package s3store

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"tenger/internal/upload"
	"tenger/internal/upload/s3store/s3fake"
	"tenger/internal/upload/storagetest"
)

// newStore is the adapter on a real S3 client whose endpoint is a fake
// S3 server.
func newStore(t *testing.T, o Options) (*Store, *s3fake.Server) {
	t.Helper()
	f := s3fake.New()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return New(f.Client(srv.URL), f.Bucket, o), f
}

func TestContract(t *testing.T) {
	storagetest.Run(t, storagetest.Harness{New: func(t *testing.T) upload.Storage {
		s, _ := newStore(t, Options{Prefix: "uploads/"})
		return s
	}})
}

// PutObject carries what the bucket relies on: the prefix, the content
// type and no-store caching, SSE (AES256, or aws:kms with the key),
// If-None-Match: * and the body's SHA-256.
func TestPutRequestShape(t *testing.T) {
	s, f := newStore(t, Options{Prefix: "uploads/"})
	key := upload.NewID()
	if err := s.Put(context.Background(), key, "image/jpeg", []byte("jpeg bytes")); err != nil {
		t.Fatal(err)
	}
	req := f.Last(http.MethodPut)
	if req.Key != "uploads/"+key {
		t.Errorf("object key %q", req.Key)
	}
	for h, want := range map[string]string{
		"Content-Type": "image/jpeg", "Cache-Control": "private, no-store", "If-None-Match": "*",
		"X-Amz-Server-Side-Encryption": "AES256",
		// sha256("jpeg bytes"), base64.
		"X-Amz-Checksum-Sha256": "G0jiEoKWPfui//86TDMUcSQv5C/QpRFh5W33IIXERck=",
	} {
		if got := req.Header.Get(h); got != want {
			t.Errorf("%s: %q, want %q", h, got, want)
		}
	}
	if obj, _ := f.Object("uploads/" + key); obj.SSE != "AES256" || string(obj.Body) != "jpeg bytes" {
		t.Errorf("stored %+v", obj)
	}

	kms, f2 := newStore(t, Options{KMSKeyID: "arn:aws:kms:ap-east-1:111122223333:key/uploads"})
	if err := kms.Put(context.Background(), key, "application/pdf", []byte("%PDF-")); err != nil {
		t.Fatal(err)
	}
	req = f2.Last(http.MethodPut)
	if req.Header.Get("X-Amz-Server-Side-Encryption") != "aws:kms" ||
		req.Header.Get("X-Amz-Server-Side-Encryption-Aws-Kms-Key-Id") != "arn:aws:kms:ap-east-1:111122223333:key/uploads" {
		t.Errorf("SSE-KMS headers %v", req.Header)
	}
}

// A read URL is a presigned GET of the object that expires within a
// minute and names the response headers in its signature: it works as
// given, not once a parameter is changed, and not after it expires.
func TestReadURL(t *testing.T) {
	s, f := newStore(t, Options{Prefix: "uploads/"})
	ctx := context.Background()
	key := upload.NewID()
	if err := s.Put(ctx, key, "image/png", []byte("png bytes")); err != nil {
		t.Fatal(err)
	}
	raw, err := s.ReadURL(ctx, key, upload.ReadHeaders{ContentType: "image/png", Disposition: `inline; filename="x.png"`})
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if q.Get("X-Amz-Expires") != "60" || q.Get("response-content-type") != "image/png" ||
		q.Get("response-cache-control") != "private, no-store" || !strings.HasSuffix(u.Path, "/uploads/"+key) {
		t.Fatalf("read URL %s", raw)
	}
	get := func(u string) (int, string) {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get(raw); code != http.StatusOK || body != "png bytes" {
		t.Fatalf("GET read URL: %d %q", code, body)
	}
	// Changing a signed parameter breaks the signature.
	q.Set("response-content-type", "text/html")
	u.RawQuery = q.Encode()
	if code, _ := get(u.String()); code != http.StatusForbidden {
		t.Fatalf("tampered URL answered %d", code)
	}
	// Past its minute the URL is refused.
	f.SetNow(func() time.Time { return time.Now().Add(61 * time.Second) })
	if code, _ := get(raw); code != http.StatusForbidden {
		t.Fatalf("expired URL answered %d", code)
	}
}

func TestErrorsMapped(t *testing.T) {
	s, _ := newStore(t, Options{})
	if _, err := s.Open(context.Background(), upload.NewID()); !errors.Is(err, upload.ErrNotFound) {
		t.Fatalf("missing object: %v", err)
	}
	wrong := NewWith(s.api, s.presign, "no-such-bucket", Options{})
	if err := wrong.Put(context.Background(), upload.NewID(), "image/png", []byte("x")); err == nil ||
		errors.Is(err, upload.ErrExists) || errors.Is(err, upload.ErrNotFound) {
		t.Fatalf("put to a missing bucket: %v", err)
	}
}
