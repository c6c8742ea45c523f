// Package s3store is the AWS adapter of upload.Storage: one object per
// upload in an S3 bucket, written encrypted at rest (SSE-S3, or SSE-KMS
// with the bucket's key when one is configured) and read back through
// presigned GET URLs that expire within a minute, so the bytes never pass
// through a Lambda response on the way to the owner's browser.
package s3store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"tenger/internal/upload"
)

// API is the part of the S3 client the adapter uses (*s3.Client has it).
type API interface {
	PutObject(ctx context.Context, in *s3.PutObjectInput, optFns ...func(*s3.Options)) (*s3.PutObjectOutput, error)
	GetObject(ctx context.Context, in *s3.GetObjectInput, optFns ...func(*s3.Options)) (*s3.GetObjectOutput, error)
	DeleteObject(ctx context.Context, in *s3.DeleteObjectInput, optFns ...func(*s3.Options)) (*s3.DeleteObjectOutput, error)
}

// Presigner signs GET URLs (*s3.PresignClient has it).
type Presigner interface {
	PresignGetObject(ctx context.Context, in *s3.GetObjectInput, optFns ...func(*s3.PresignOptions)) (*v4.PresignedHTTPRequest, error)
}

// DefaultURLExpiry is how long a read URL works: long enough for the
// browser to follow the redirect it comes in, short enough that a URL
// copied out of a log or a history is soon worthless.
const DefaultURLExpiry = time.Minute

// Options configure the adapter.
type Options struct {
	// Prefix is put before every key ("uploads/").
	Prefix string
	// KMSKeyID, when set, encrypts objects with SSE-KMS under this key;
	// otherwise with SSE-S3 (AES256).
	KMSKeyID string
	// URLExpiry is how long read URLs work (default DefaultURLExpiry).
	URLExpiry time.Duration
}

// Store keeps uploads in a bucket.
type Store struct {
	api     API
	presign Presigner
	bucket  string
	o       Options
}

var _ upload.Storage = (*Store)(nil)

// New returns the adapter on the client's bucket.
func New(c *s3.Client, bucket string, o Options) *Store {
	return NewWith(c, s3.NewPresignClient(c), bucket, o)
}

// NewWith returns the adapter on any implementation of the calls (tests).
func NewWith(api API, presign Presigner, bucket string, o Options) *Store {
	if o.URLExpiry <= 0 {
		o.URLExpiry = DefaultURLExpiry
	}
	return &Store{api: api, presign: presign, bucket: bucket, o: o}
}

func (s *Store) key(key string) (*string, error) {
	if !upload.ValidKey(key) {
		return nil, upload.ErrInvalidKey
	}
	return aws.String(s.o.Prefix + key), nil
}

// Put writes the object only if no object has its key (If-None-Match:
// *), with its SHA-256 for S3 to verify, encrypted at rest, and with the
// headers a direct GET should be answered with.
func (s *Store) Put(ctx context.Context, key, contentType string, data []byte) error {
	k, err := s.key(key)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	in := &s3.PutObjectInput{
		Bucket:               aws.String(s.bucket),
		Key:                  k,
		Body:                 bytes.NewReader(data),
		ContentLength:        aws.Int64(int64(len(data))),
		ContentType:          aws.String(contentType),
		CacheControl:         aws.String("private, no-store"),
		ChecksumAlgorithm:    types.ChecksumAlgorithmSha256,
		ChecksumSHA256:       aws.String(base64.StdEncoding.EncodeToString(sum[:])),
		IfNoneMatch:          aws.String("*"),
		ServerSideEncryption: types.ServerSideEncryptionAes256,
	}
	if s.o.KMSKeyID != "" {
		in.ServerSideEncryption = types.ServerSideEncryptionAwsKms
		in.SSEKMSKeyId = aws.String(s.o.KMSKeyID)
	}
	if _, err := s.api.PutObject(ctx, in); err != nil {
		if status(err) == http.StatusPreconditionFailed {
			return upload.ErrExists
		}
		return fmt.Errorf("s3store: put %s: %w", key, err)
	}
	return nil
}

// Open reads the object under key.
func (s *Store) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	k, err := s.key(key)
	if err != nil {
		return nil, err
	}
	out, err := s.api.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: k})
	if err != nil {
		var nsk *types.NoSuchKey
		if errors.As(err, &nsk) || status(err) == http.StatusNotFound {
			return nil, upload.ErrNotFound
		}
		return nil, fmt.Errorf("s3store: get %s: %w", key, err)
	}
	return out.Body, nil
}

// Delete removes the object under key (S3 answers a missing key with
// success too).
func (s *Store) Delete(ctx context.Context, key string) error {
	k, err := s.key(key)
	if err != nil {
		return err
	}
	if _, err := s.api.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: k}); err != nil {
		return fmt.Errorf("s3store: delete %s: %w", key, err)
	}
	return nil
}

// ReadURL presigns a GET of the object that expires after URLExpiry and
// is answered with the upload's content type, inline disposition and
// no caching (S3's response-* overrides, which are part of the
// signature, so they cannot be changed in the URL).
func (s *Store) ReadURL(ctx context.Context, key string, h upload.ReadHeaders) (string, error) {
	k, err := s.key(key)
	if err != nil {
		return "", err
	}
	in := &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: k,
		ResponseCacheControl: aws.String("private, no-store")}
	if h.ContentType != "" {
		in.ResponseContentType = aws.String(h.ContentType)
	}
	if h.Disposition != "" {
		in.ResponseContentDisposition = aws.String(h.Disposition)
	}
	req, err := s.presign.PresignGetObject(ctx, in, s3.WithPresignExpires(s.o.URLExpiry))
	if err != nil {
		return "", fmt.Errorf("s3store: presign %s: %w", key, err)
	}
	return req.URL, nil
}

// status is the HTTP status of a failed S3 call, or 0.
func status(err error) int {
	var re *smithyhttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}
