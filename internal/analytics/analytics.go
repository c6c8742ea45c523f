// Package analytics records what the web app reports about its use: one
// page view per route change (spec §2). Views are kept for 90 days and can be
// counted per day and path.
//
// Item layout: pk "PAGEVIEW#<yyyy-mm-dd>", sk "<unix-ms>#<random>", with the
// path, title, referrer, user id (when signed in), device and language.
package analytics

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"tenger/internal/store"
)

// Retention is how long page views are kept.
const Retention = 90 * 24 * time.Hour

// PageView is one reported route change.
type PageView struct {
	Path     string
	Title    string
	Referrer string
	UserID   string
	Device   string
	Lang     string
	At       time.Time
}

// Recorder writes page views to the store.
type Recorder struct {
	st store.Store
}

// NewRecorder builds a recorder on the store.
func NewRecorder(st store.Store) *Recorder { return &Recorder{st: st} }

// Record stores one page view.
func (r *Recorder) Record(ctx context.Context, v PageView) error {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	day := v.At.UTC().Format("2006-01-02")
	return r.st.Put(ctx, store.Item{
		store.AttrPK:  "PAGEVIEW#" + day,
		store.AttrSK:  fmt.Sprintf("%013d#%s", v.At.UnixMilli(), hex.EncodeToString(b)),
		"path":        v.Path,
		"title":       v.Title,
		"referrer":    v.Referrer,
		"uid":         v.UserID,
		"device":      v.Device,
		"lang":        v.Lang,
		store.AttrTTL: v.At.Add(Retention).Unix(),
	}, nil)
}

// CountByPath counts the page views of one day per path.
func (r *Recorder) CountByPath(ctx context.Context, day time.Time) (map[string]int, error) {
	out := map[string]int{}
	q := store.Query{PK: "PAGEVIEW#" + day.UTC().Format("2006-01-02"), Limit: 500}
	for {
		page, err := r.st.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			out[it.Str("path")]++
		}
		if page.Cursor == "" {
			return out, nil
		}
		q.Cursor = page.Cursor
	}
}

// ValidPath reports whether p looks like an app path worth recording.
func ValidPath(p string) bool {
	return strings.HasPrefix(p, "/") && len(p) <= 512 && !strings.ContainsAny(p, " \t\r\n")
}
