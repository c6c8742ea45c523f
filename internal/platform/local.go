package platform

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/notify/outbox"
	"tenger/internal/store/embedded"
)

// Local is the local runtime: Deps plus the adapters only it has.
type Local struct {
	*Deps
	// Outbox records SMS and e-mail; /dev/outbox reads it.
	Outbox *outbox.Outbox
}

// OpenLocal opens the local runtime's ports under dataDir: store/ (the
// embedded item store), outbox/ (SMS and e-mail), and secret.key (the key
// that seals secrets at rest, created on first start).
func OpenLocal(dataDir string, cfg Config, log zerolog.Logger) (*Local, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	if cfg.Stage == "" {
		cfg.Stage = "local"
	}
	d := &Deps{Log: log, Now: time.Now, Config: cfg}
	key, err := loadOrCreateKey(filepath.Join(dataDir, "secret.key"))
	if err != nil {
		return nil, err
	}
	d.SecretKey = key
	st, err := embedded.Open(filepath.Join(dataDir, "store"), embedded.Options{Logger: &log})
	if err != nil {
		return nil, err
	}
	d.Store = st
	d.onClose(st.Close)
	ob, err := outbox.Open(filepath.Join(dataDir, "outbox"))
	if err != nil {
		_ = d.Close()
		return nil, err
	}
	d.Notify = ob
	d.onClose(ob.Close)
	return &Local{Deps: d, Outbox: ob}, nil
}

// loadOrCreateKey reads a 32-byte key, creating it (mode 0600) when absent.
func loadOrCreateKey(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		if len(b) != 32 {
			return nil, fmt.Errorf("%s: want 32 bytes, found %d", path, len(b))
		}
		return b, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	b = make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	// Written durably (file, then directory) before first use: secrets sealed
	// with a key that a power cut could lose would be unreadable.
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, err
	}
	if dir, err := os.Open(filepath.Dir(path)); err == nil {
		_ = dir.Sync()
		dir.Close()
	}
	return b, nil
}
