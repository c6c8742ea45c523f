// Package storagetest is the contract suite of upload.Storage: every
// adapter (diskstore, s3store) runs it, so they behave alike for the
// upload service: what is put reads back byte for byte, a key is never
// overwritten, missing keys are ErrNotFound, keys that NewID could not
// have made are refused on every call, and concurrent puts are safe.
package storagetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"tenger/internal/upload"
)

// Harness makes a new, empty adapter for one test. Fetch, when set, is
// the HTTP client read URLs are fetched with (the adapter's test server's
// client); nil means http.DefaultClient.
type Harness struct {
	New   func(t *testing.T) upload.Storage
	Fetch *http.Client
}

// Run runs the suite.
func Run(t *testing.T, h Harness) {
	t.Run("PutOpen", func(t *testing.T) { testPutOpen(t, h) })
	t.Run("NeverOverwrites", func(t *testing.T) { testNeverOverwrites(t, h) })
	t.Run("Missing", func(t *testing.T) { testMissing(t, h) })
	t.Run("Delete", func(t *testing.T) { testDelete(t, h) })
	t.Run("InvalidKeys", func(t *testing.T) { testInvalidKeys(t, h) })
	t.Run("ReadURL", func(t *testing.T) { testReadURL(t, h) })
	t.Run("Concurrent", func(t *testing.T) { testConcurrent(t, h) })
}

func random(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

func read(t *testing.T, s upload.Storage, key string) []byte {
	t.Helper()
	rc, err := s.Open(context.Background(), key)
	if err != nil {
		t.Fatalf("open %s: %v", key, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	return b
}

func testPutOpen(t *testing.T, h Harness) {
	s := h.New(t)
	ctx := context.Background()
	for _, n := range []int{1, 1000, 3 << 20} {
		key, data := upload.NewID(), random(t, n)
		if err := s.Put(ctx, key, "image/png", data); err != nil {
			t.Fatalf("put %d bytes: %v", n, err)
		}
		if got := read(t, s, key); !bytes.Equal(got, data) {
			t.Fatalf("%d bytes put, %d different bytes read", n, len(got))
		}
	}
}

func testNeverOverwrites(t *testing.T, h Harness) {
	s := h.New(t)
	ctx := context.Background()
	key := upload.NewID()
	first := []byte("first")
	if err := s.Put(ctx, key, "image/jpeg", first); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, key, "application/pdf", []byte("second")); !errors.Is(err, upload.ErrExists) {
		t.Fatalf("second put of one key: %v, want ErrExists", err)
	}
	if got := read(t, s, key); !bytes.Equal(got, first) {
		t.Fatalf("after a refused put the file is %q", got)
	}
}

func testMissing(t *testing.T, h Harness) {
	s := h.New(t)
	if _, err := s.Open(context.Background(), upload.NewID()); !errors.Is(err, upload.ErrNotFound) {
		t.Fatalf("open of a missing key: %v, want ErrNotFound", err)
	}
}

func testDelete(t *testing.T, h Harness) {
	s := h.New(t)
	ctx := context.Background()
	key := upload.NewID()
	if err := s.Put(ctx, key, "image/png", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, key); !errors.Is(err, upload.ErrNotFound) {
		t.Fatalf("open after delete: %v", err)
	}
	if err := s.Delete(ctx, key); err != nil {
		t.Fatalf("delete of a missing key: %v", err)
	}
	// A deleted key may be put again (the service never does, but a
	// delete must not leave a tombstone that breaks the adapter).
	if err := s.Put(ctx, key, "image/png", []byte("y")); err != nil {
		t.Fatalf("put after delete: %v", err)
	}
}

func testInvalidKeys(t *testing.T, h Harness) {
	s := h.New(t)
	ctx := context.Background()
	valid := upload.NewID()
	for _, key := range []string{"", "../" + valid[3:], valid[:31] + "/", valid + "0", valid[:31], "ABCDEF" + valid[6:],
		"..", "/etc/passwd", valid[:16] + "\x00" + valid[17:], valid[:30] + "%2f"} {
		if err := s.Put(ctx, key, "image/png", []byte("x")); !errors.Is(err, upload.ErrInvalidKey) {
			t.Errorf("put %q: %v, want ErrInvalidKey", key, err)
		}
		if _, err := s.Open(ctx, key); !errors.Is(err, upload.ErrInvalidKey) {
			t.Errorf("open %q: %v, want ErrInvalidKey", key, err)
		}
		if err := s.Delete(ctx, key); !errors.Is(err, upload.ErrInvalidKey) {
			t.Errorf("delete %q: %v, want ErrInvalidKey", key, err)
		}
		if _, err := s.ReadURL(ctx, key, upload.ReadHeaders{}); !errors.Is(err, upload.ErrInvalidKey) {
			t.Errorf("read URL %q: %v, want ErrInvalidKey", key, err)
		}
	}
}

// testReadURL: an adapter with read URLs serves the file at one with the
// headers asked for; one without answers "".
func testReadURL(t *testing.T, h Harness) {
	s := h.New(t)
	ctx := context.Background()
	key, data := upload.NewID(), random(t, 5000)
	if err := s.Put(ctx, key, "image/png", data); err != nil {
		t.Fatal(err)
	}
	hdr := upload.ReadHeaders{ContentType: "image/png", Disposition: `inline; filename="` + key + `.png"`}
	url, err := s.ReadURL(ctx, key, hdr)
	if err != nil {
		t.Fatal(err)
	}
	if url == "" {
		return
	}
	c := h.Fetch
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !bytes.Equal(got, data) {
		t.Fatalf("GET read URL: %d, %d bytes", resp.StatusCode, len(got))
	}
	if ct := resp.Header.Get("Content-Type"); ct != hdr.ContentType {
		t.Errorf("Content-Type %q", ct)
	}
	if cd := resp.Header.Get("Content-Disposition"); cd != hdr.Disposition {
		t.Errorf("Content-Disposition %q", cd)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "private, no-store" {
		t.Errorf("Cache-Control %q", cc)
	}
}

// testConcurrent: puts of different keys all land; puts of one key
// leave exactly one winner and its bytes.
func testConcurrent(t *testing.T, h Harness) {
	s := h.New(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	keys := make([]string, 16)
	datas := make([][]byte, len(keys))
	for i := range keys {
		keys[i], datas[i] = upload.NewID(), random(t, 2000+i)
	}
	for i := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.Put(ctx, keys[i], "image/jpeg", datas[i]); err != nil {
				t.Errorf("put %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	for i, k := range keys {
		if !bytes.Equal(read(t, s, k), datas[i]) {
			t.Fatalf("key %d reads other bytes", i)
		}
	}

	one := upload.NewID()
	var won atomic.Int32
	var winner atomic.Value
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			data := []byte{byte(i)}
			err := s.Put(ctx, one, "image/png", data)
			switch {
			case err == nil:
				won.Add(1)
				winner.Store(data)
			case !errors.Is(err, upload.ErrExists):
				t.Errorf("racing put %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if won.Load() != 1 {
		t.Fatalf("%d racing puts of one key succeeded, want 1", won.Load())
	}
	if got := read(t, s, one); !bytes.Equal(got, winner.Load().([]byte)) {
		t.Fatalf("the key holds %v, not the winner's bytes", got)
	}
}
