package diskstore

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"tenger/internal/upload"
	"tenger/internal/upload/storagetest"
)

func TestContract(t *testing.T) {
	storagetest.Run(t, storagetest.Harness{New: func(t *testing.T) upload.Storage {
		s, err := Open(filepath.Join(t.TempDir(), "uploads"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}})
}

// Only the server's user may read the directory and its files, which are
// named by their key and nothing else.
func TestModesAndNames(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "uploads")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// A temporary file left by a crash is removed at open.
	if err := os.WriteFile(filepath.Join(dir, tmpPrefix+"123"), []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	key := upload.NewID()
	if err := s.Put(context.Background(), key, "image/png", []byte("png")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(dir)
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("directory mode %v %v", st.Mode(), err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != key {
		t.Fatalf("directory holds %v, want only %s", entries, key)
	}
	fi, err := entries[0].Info()
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v %v", fi.Mode(), err)
	}
}
