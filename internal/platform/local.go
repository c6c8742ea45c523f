package platform

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/store/embedded"
)

// OpenLocal opens the local runtime's ports under dataDir:
// dataDir/store (the embedded item store) and the other adapters' folders.
func OpenLocal(dataDir string, cfg Config, log zerolog.Logger) (*Deps, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	if cfg.Stage == "" {
		cfg.Stage = "local"
	}
	d := &Deps{Log: log, Now: time.Now, Config: cfg}
	st, err := embedded.Open(filepath.Join(dataDir, "store"), embedded.Options{Logger: &log})
	if err != nil {
		return nil, err
	}
	d.Store = st
	d.onClose(st.Close)
	return d, nil
}
