// Package s3fake is an S3 endpoint for tests, since no real AWS is reached
// from them: it speaks as much of S3's REST API (path-style) as the
// uploads' adapter uses, PutObject (with If-None-Match, SSE and a SHA-256
// checksum), GetObject (signed with a header or presigned in the query,
// with the response-* overrides) and DeleteObject, and checks what S3
// would: the SigV4 signature of presigned URLs (recomputed here, so a
// changed parameter or an expired URL is refused), the checksum of the
// body, and that objects are encrypted. It records every request, so
// tests can assert their shapes.
package s3fake

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Server is the fake endpoint of one bucket.
type Server struct {
	// Bucket, Region and the credentials are what clients must use.
	Bucket, Region, KeyID, Secret string

	mu       sync.Mutex
	objects  map[string]Object
	requests []Request
	now      func() time.Time
}

// Object is a stored object with the headers it was put with.
type Object struct {
	Body                      []byte
	ContentType, CacheControl string
	SSE, KMSKey               string
}

// Request is a request as the endpoint received it.
type Request struct {
	Method, Key string
	Header      http.Header
	Query       url.Values
}

// New returns an empty endpoint of the bucket "tenger-uploads-test".
func New() *Server {
	return &Server{Bucket: "tenger-uploads-test", Region: "ap-east-1", KeyID: "AKIDTESTUPLOADS", Secret: "fake-secret-for-tests",
		objects: map[string]Object{}, now: time.Now}
}

// Client is a real S3 client of the endpoint at url (an httptest
// server's), path-style, with the endpoint's credentials.
func (f *Server) Client(url string) *s3.Client {
	return s3.New(s3.Options{Region: f.Region, BaseEndpoint: aws.String(url), UsePathStyle: true,
		Credentials: credentials.NewStaticCredentialsProvider(f.KeyID, f.Secret, "")})
}

// SetNow sets the endpoint's clock (presigned URLs expire by it).
func (f *Server) SetNow(now func() time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = now
}

// Object returns the object under key.
func (f *Server) Object(key string) (Object, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	o, ok := f.objects[key]
	return o, ok
}

// fail answers with S3's XML error.
func (f *Server) fail(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>%s</Message><RequestId>r1</RequestId></Error>`, code, msg)
}

// ServeHTTP serves the S3 calls.
func (f *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/")
	bucket, key, ok := strings.Cut(path, "/")
	f.mu.Lock()
	f.requests = append(f.requests, Request{Method: r.Method, Key: key, Header: r.Header.Clone(), Query: r.URL.Query()})
	f.mu.Unlock()
	if !ok || bucket != f.Bucket || key == "" {
		f.fail(w, http.StatusNotFound, "NoSuchBucket", "no such bucket")
		return
	}
	presigned := r.URL.Query().Get("X-Amz-Signature") != ""
	if presigned {
		if r.Method != http.MethodGet {
			f.fail(w, http.StatusForbidden, "AccessDenied", "presigned for GET only")
			return
		}
		if msg := f.checkPresigned(r); msg != "" {
			f.fail(w, http.StatusForbidden, "AccessDenied", msg)
			return
		}
	} else if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 Credential="+f.KeyID+"/") ||
		!strings.Contains(r.Header.Get("Authorization"), "/"+f.Region+"/s3/aws4_request") {
		f.fail(w, http.StatusForbidden, "AccessDenied", "unsigned request")
		return
	}
	switch r.Method {
	case http.MethodPut:
		f.put(w, r, key)
	case http.MethodGet:
		f.get(w, r, key)
	case http.MethodDelete:
		f.mu.Lock()
		delete(f.objects, key)
		f.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	default:
		f.fail(w, http.StatusMethodNotAllowed, "MethodNotAllowed", r.Method)
	}
}

func (f *Server) put(w http.ResponseWriter, r *http.Request, key string) {
	body, err := readBody(r)
	if err != nil {
		f.fail(w, http.StatusBadRequest, "IncompleteBody", err.Error())
		return
	}
	if want := r.Header.Get("X-Amz-Checksum-Sha256"); want != "" {
		sum := sha256.Sum256(body)
		if base64.StdEncoding.EncodeToString(sum[:]) != want {
			f.fail(w, http.StatusBadRequest, "BadDigest", "checksum mismatch")
			return
		}
	}
	sse := r.Header.Get("X-Amz-Server-Side-Encryption")
	if sse != "AES256" && sse != "aws:kms" {
		f.fail(w, http.StatusBadRequest, "InvalidArgument", "this bucket takes encrypted objects only")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.Header.Get("If-None-Match") == "*" {
		if _, exists := f.objects[key]; exists {
			f.fail(w, http.StatusPreconditionFailed, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold")
			return
		}
	}
	f.objects[key] = Object{Body: body, ContentType: r.Header.Get("Content-Type"), CacheControl: r.Header.Get("Cache-Control"),
		SSE: sse, KMSKey: r.Header.Get("X-Amz-Server-Side-Encryption-Aws-Kms-Key-Id")}
	w.Header().Set("ETag", `"e1"`)
	w.WriteHeader(http.StatusOK)
}

// readBody reads a PutObject body, undoing the aws-chunked encoding the
// SDK uses when it sends the checksum as a trailer.
func readBody(r *http.Request) ([]byte, error) {
	if !strings.Contains(r.Header.Get("Content-Encoding"), "aws-chunked") {
		return io.ReadAll(r.Body)
	}
	br := bufio.NewReader(r.Body)
	var out bytes.Buffer
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, err
		}
		sizeHex, _, _ := strings.Cut(strings.TrimSpace(line), ";")
		n, err := strconv.ParseInt(sizeHex, 16, 64)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return out.Bytes(), nil
		}
		if _, err := io.CopyN(&out, br, n); err != nil {
			return nil, err
		}
		if _, err := br.ReadString('\n'); err != nil {
			return nil, err
		}
	}
}

func (f *Server) get(w http.ResponseWriter, r *http.Request, key string) {
	f.mu.Lock()
	obj, ok := f.objects[key]
	f.mu.Unlock()
	if !ok {
		f.fail(w, http.StatusNotFound, "NoSuchKey", "The specified key does not exist.")
		return
	}
	q := r.URL.Query()
	h := w.Header()
	h.Set("Content-Type", obj.ContentType)
	h.Set("Cache-Control", obj.CacheControl)
	if v := q.Get("response-content-type"); v != "" {
		h.Set("Content-Type", v)
	}
	if v := q.Get("response-content-disposition"); v != "" {
		h.Set("Content-Disposition", v)
	}
	if v := q.Get("response-cache-control"); v != "" {
		h.Set("Cache-Control", v)
	}
	h.Set("Content-Length", strconv.Itoa(len(obj.Body)))
	_, _ = w.Write(obj.Body)
}

// checkPresigned recomputes a presigned URL's SigV4 signature and checks
// its expiry, as S3 does; it returns why the URL is refused, or "".
func (f *Server) checkPresigned(r *http.Request) string {
	q := r.URL.Query()
	if q.Get("X-Amz-Algorithm") != "AWS4-HMAC-SHA256" {
		return "algorithm"
	}
	signedAt, err := time.Parse("20060102T150405Z", q.Get("X-Amz-Date"))
	if err != nil {
		return "date"
	}
	secs, err := strconv.Atoi(q.Get("X-Amz-Expires"))
	if err != nil || secs <= 0 || secs > 604800 {
		return "expires"
	}
	f.mu.Lock()
	now := f.now()
	f.mu.Unlock()
	if now.After(signedAt.Add(time.Duration(secs) * time.Second)) {
		return "Request has expired"
	}
	got := q.Get("X-Amz-Signature")
	unsigned := url.Values{}
	for k, vs := range q {
		switch k {
		case "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-SignedHeaders", "X-Amz-Signature":
			continue
		}
		unsigned[k] = vs
	}
	u := url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path, RawQuery: unsigned.Encode()}
	req, err := http.NewRequest(http.MethodGet, u.String(), nil)
	if err != nil {
		return "url"
	}
	signed, _, err := v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true }).PresignHTTP(context.Background(),
		aws.Credentials{AccessKeyID: f.KeyID, SecretAccessKey: f.Secret}, req, "UNSIGNED-PAYLOAD", "s3", f.Region, signedAt)
	if err != nil {
		return "sign"
	}
	su, err := url.Parse(signed)
	if err != nil || su.Query().Get("X-Amz-Signature") != got {
		return "The request signature we calculated does not match the signature you provided"
	}
	return ""
}

// Last is the newest request of the method.
func (f *Server) Last(method string) Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.requests) - 1; i >= 0; i-- {
		if f.requests[i].Method == method {
			return f.requests[i]
		}
	}
	return Request{}
}
