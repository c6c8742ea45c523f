package upload

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
)

// Storage keeps the bytes of uploaded files. It sees only the random keys
// the service gives it (NewID) and the content type to serve them with:
// the owner, purpose and checksums live in the store (Service), so an
// adapter never needs, and never gets, anything the user chose.
// Adapters: diskstore (files under the data directory, `tenger serve`)
// and s3store (an S3 bucket, AWS); storagetest is their contract suite.
type Storage interface {
	// Put stores data under key. A key that is already stored is never
	// overwritten: Put returns ErrExists and the stored file is unchanged.
	Put(ctx context.Context, key, contentType string, data []byte) error
	// Open reads the file stored under key; ErrNotFound when there is none.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	// Delete removes the file under key; deleting a missing key is not an
	// error.
	Delete(ctx context.Context, key string) error
	// ReadURL returns a URL the owner's browser may fetch the file from
	// directly for a short time (S3: a presigned GET), answered with the
	// given headers, or "" when the storage has no such URL and the API
	// streams the file itself (diskstore).
	ReadURL(ctx context.Context, key string, h ReadHeaders) (string, error)
}

// ReadHeaders are the headers a direct read URL is answered with.
type ReadHeaders struct {
	// ContentType is the upload's content type, from its metadata.
	ContentType string
	// Disposition is the Content-Disposition ("inline; filename=...").
	Disposition string
}

// Errors of every Storage adapter, tested with errors.Is.
var (
	// ErrNotFound: no file under the key.
	ErrNotFound = errors.New("upload: file not found")
	// ErrExists: Put found a file under the key already.
	ErrExists = errors.New("upload: file exists")
	// ErrInvalidKey: the key is not one NewID makes. Adapters check it on
	// every call, so no caller can reach a path or object outside the
	// uploads (a "../" or a "/" never gets that far).
	ErrInvalidKey = errors.New("upload: invalid key")
)

// idBytes is the randomness of an upload id: 128 bits, so ids can be
// neither guessed nor enumerated.
const idBytes = 16

// NewID returns a new random upload id: 32 lower-case hex digits. It is
// also the file's key in Storage.
func NewID() string {
	b := make([]byte, idBytes)
	// crypto/rand.Read never fails (it panics or blocks rather than
	// return short), as documented since Go 1.24.
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// ValidKey reports whether key is an id NewID could have made: exactly 32
// lower-case hex digits, so it is safe as a file name and an object key.
func ValidKey(key string) bool {
	if len(key) != 2*idBytes {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
