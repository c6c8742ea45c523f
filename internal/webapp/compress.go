package webapp

import (
	"bytes"
	"compress/gzip"
	"mime"
	"net/http"
	"os"
	"path"
	"strings"
	"sync"
	"time"
)

// compressible lists the types served gzipped to clients that accept it;
// images and fonts are compressed already.
var compressible = map[string]bool{".js": true, ".css": true, ".html": true, ".svg": true, ".json": true,
	".webmanifest": true, ".txt": true, ".map": true}

// minCompress: smaller files gain nothing worth a compression header.
const minCompress = 512

// gzipCache keeps each file's gzipped bytes, compressed once per version
// of the file (its size and modification time), so a hashed asset costs
// one compression per process.
type gzipCache struct {
	mu    sync.Mutex
	files map[string]gzipped
}

type gzipped struct {
	size int64
	mod  time.Time
	gz   []byte
}

func (c *gzipCache) get(file string, st os.FileInfo) ([]byte, error) {
	c.mu.Lock()
	g, ok := c.files[file]
	c.mu.Unlock()
	if ok && g.size == st.Size() && g.mod.Equal(st.ModTime()) {
		return g.gz, nil
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	_, _ = zw.Write(raw)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.files == nil {
		c.files = map[string]gzipped{}
	}
	c.files[file] = gzipped{size: st.Size(), mod: st.ModTime(), gz: b.Bytes()}
	c.mu.Unlock()
	return b.Bytes(), nil
}

// acceptsGzip reads Accept-Encoding: gzip, unless its q is 0.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}

// serveFile serves file, gzipped when the type is compressible and the
// client accepts it (tenger serve has no CDN in front to do it).
func (c *gzipCache) serveFile(w http.ResponseWriter, r *http.Request, file string, st os.FileInfo) {
	ext := strings.ToLower(path.Ext(file))
	if !compressible[ext] || st.Size() < minCompress {
		http.ServeFile(w, r, file)
		return
	}
	w.Header().Add("Vary", "Accept-Encoding")
	if !acceptsGzip(r) {
		http.ServeFile(w, r, file)
		return
	}
	gz, err := c.get(file, st)
	if err != nil {
		http.ServeFile(w, r, file)
		return
	}
	ct := mime.TypeByExtension(ext)
	if ct == "" {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Encoding", "gzip")
	http.ServeContent(w, r, file, st.ModTime(), bytes.NewReader(gz))
}
