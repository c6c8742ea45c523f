// Package diskstore is the local adapter of upload.Storage: one file per
// upload in a directory of the data directory (`tenger serve` uses
// <data>/uploads). Files are named by the upload's random id, never by
// anything the user sent, and only the server's user may read them
// (directory 0700, files 0600).
package diskstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"tenger/internal/upload"
)

// Store keeps uploads as files in one directory.
type Store struct {
	dir string
}

var _ upload.Storage = (*Store)(nil)

// Open opens (creating it when missing) the directory dir, and removes
// the temporary files a process that stopped in the middle of a Put left.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("diskstore: %w", err)
	}
	// A directory made by an earlier version, or by hand, is narrowed too:
	// identity documents must not be readable by other local users.
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("diskstore: %w", err)
	}
	tmps, err := filepath.Glob(filepath.Join(dir, tmpPrefix+"*"))
	if err != nil {
		return nil, fmt.Errorf("diskstore: %w", err)
	}
	for _, t := range tmps {
		_ = os.Remove(t)
	}
	return &Store{dir: dir}, nil
}

// tmpPrefix starts the names of files being written; no key starts so
// (keys are hex digits).
const tmpPrefix = ".tmp-"

func (s *Store) path(key string) (string, error) {
	if !upload.ValidKey(key) {
		return "", upload.ErrInvalidKey
	}
	return filepath.Join(s.dir, key), nil
}

// Put writes data to a temporary file, syncs it and links it under its
// key, which fails when the key exists: a stored file is never replaced,
// and a reader never sees half a file.
func (s *Store) Put(_ context.Context, key, _ string, data []byte) (err error) {
	p, err := s.path(key)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(s.dir, tmpPrefix)
	if err != nil {
		return fmt.Errorf("diskstore: %w", err)
	}
	tmp := f.Name()
	defer func() {
		_ = os.Remove(tmp)
	}()
	// CreateTemp makes 0600 files; Chmod says so rather than rely on it.
	if err := f.Chmod(0o600); err != nil {
		_ = f.Close()
		return fmt.Errorf("diskstore: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return fmt.Errorf("diskstore: %w", err)
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return fmt.Errorf("diskstore: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("diskstore: %w", err)
	}
	if err := os.Link(tmp, p); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return upload.ErrExists
		}
		return fmt.Errorf("diskstore: %w", err)
	}
	return syncDir(s.dir)
}

// syncDir makes a new name in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("diskstore: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("diskstore: %w", err)
	}
	return nil
}

// Open reads the file under key.
func (s *Store) Open(_ context.Context, key string) (io.ReadCloser, error) {
	p, err := s.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, upload.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("diskstore: %w", err)
	}
	return f, nil
}

// Delete removes the file under key.
func (s *Store) Delete(_ context.Context, key string) error {
	p, err := s.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("diskstore: %w", err)
	}
	return nil
}

// ReadURL is always "": the API streams local files itself.
func (s *Store) ReadURL(_ context.Context, key string, _ upload.ReadHeaders) (string, error) {
	if !upload.ValidKey(key) {
		return "", upload.ErrInvalidKey
	}
	return "", nil
}
