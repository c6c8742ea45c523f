package content

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"tenger/internal/store"
)

// Store layout of the texts.
const (
	pagePKPrefix     = "CONTENT#"
	attrTranslations = "translations"
	attrHash         = "hash"
	attrPageID       = "pageId"
	attrLocale       = "locale"
	attrEntries      = "entries"
	// maxPageBytes keeps a page's item well under DynamoDB's 400 KB limit.
	maxPageBytes = 300 << 10
)

// manifestKey addresses the item listing every loaded page and locale with
// its hash, plus a hash over all of them. It lets Load skip all work with one
// read when nothing changed (every Lambda cold start runs Load) and delete
// the texts of pages removed from the repository.
var manifestKey = store.Key{PK: "CONTENT", SK: "MANIFEST"}

//go:embed texts
var textsFS embed.FS

// Texts returns the page texts compiled into the binary, laid out as
// <locale>/<pageId>.json.
func Texts() fs.FS {
	sub, err := fs.Sub(textsFS, "texts")
	if err != nil { // only for an invalid directory name, which "texts" is not
		panic(err)
	}
	return sub
}

// localePattern is the shape of a locale directory name.
var localePattern = regexp.MustCompile(`^[a-z]{2,3}-[A-Z]{2}$`)

// textFile is one parsed text file.
type textFile struct {
	id, locale string
	canonical  []byte // compact JSON with sorted keys
	hash       string
}

func (t textFile) entryKey() string { return t.id + "/" + t.locale }

// Load reads every <locale>/<pageId>.json of fsys and writes the texts into
// st (items pk "CONTENT#<pageId>", sk "<locale>", attributes translations,
// a JSON string, and its hash). It is idempotent: unchanged texts are not
// written again, and when nothing changed it costs one read. It returns the
// number of distinct page ids. Dotfiles and files not ending in .json are
// ignored; a file that is not a JSON object, or a misnamed directory or
// file, is an error naming it, and then nothing is written.
func Load(ctx context.Context, st store.Store, fsys fs.FS) (pages int, err error) {
	files, err := readTexts(fsys)
	if err != nil {
		return 0, err
	}
	ids := map[string]bool{}
	entries := map[string]any{}
	for _, f := range files {
		ids[f.id] = true
		entries[f.entryKey()] = f.hash
	}
	total := manifestHash(files)

	old, err := st.Get(ctx, manifestKey)
	switch {
	case errors.Is(err, store.ErrNotFound):
		old = store.Item{}
	case err != nil:
		return 0, fmt.Errorf("content: read manifest: %w", err)
	}
	if old.Str(attrHash) == total {
		return len(ids), nil
	}
	oldEntries, _ := old[attrEntries].(map[string]any)

	for _, f := range files {
		if h, _ := oldEntries[f.entryKey()].(string); h == f.hash {
			continue
		}
		it := store.Item{
			store.AttrPK:     pagePKPrefix + f.id,
			store.AttrSK:     f.locale,
			attrPageID:       f.id,
			attrLocale:       f.locale,
			attrTranslations: string(f.canonical),
			attrHash:         f.hash,
		}
		// The condition skips the write when another loader (a concurrent
		// cold start) already stored the same texts.
		err := st.Put(ctx, it, store.Not(store.Eq(attrHash, f.hash)))
		if err != nil && !errors.Is(err, store.ErrConditionFailed) {
			return 0, fmt.Errorf("content: write %s: %w", f.entryKey(), err)
		}
	}
	for k := range oldEntries {
		if _, still := entries[k]; still {
			continue
		}
		id, locale, ok := strings.Cut(k, "/")
		if !ok {
			continue
		}
		if err := st.Delete(ctx, pageKey(id, locale), nil); err != nil {
			return 0, fmt.Errorf("content: delete removed page %s: %w", k, err)
		}
	}
	// The manifest goes last, so a load that fails half-way is redone in
	// full by the next one.
	manifest := store.Item{
		store.AttrPK: manifestKey.PK,
		store.AttrSK: manifestKey.SK,
		attrHash:     total,
		attrEntries:  entries,
	}
	if err := st.Put(ctx, manifest, nil); err != nil {
		return 0, fmt.Errorf("content: write manifest: %w", err)
	}
	return len(ids), nil
}

// readTexts parses every text file, sorted by page id then locale.
func readTexts(fsys fs.FS) ([]textFile, error) {
	locales, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("content: read texts: %w", err)
	}
	var files []textFile
	for _, ld := range locales {
		if strings.HasPrefix(ld.Name(), ".") {
			continue
		}
		if !ld.IsDir() {
			continue // a README or similar next to the locale directories
		}
		if !localePattern.MatchString(ld.Name()) {
			return nil, fmt.Errorf("content: directory %q is not a locale like en-US", ld.Name())
		}
		pages, err := fs.ReadDir(fsys, ld.Name())
		if err != nil {
			return nil, fmt.Errorf("content: read %s: %w", ld.Name(), err)
		}
		for _, pf := range pages {
			name := pf.Name()
			if strings.HasPrefix(name, ".") || pf.IsDir() || !strings.HasSuffix(name, ".json") {
				continue
			}
			id := strings.TrimSuffix(name, ".json")
			p := path.Join(ld.Name(), name)
			if !pageIDPattern.MatchString(id) {
				return nil, fmt.Errorf("content: %s: page id %q must match %s", p, id, pageIDPattern)
			}
			f, err := parseTextFile(fsys, p)
			if err != nil {
				return nil, err
			}
			f.id, f.locale = id, ld.Name()
			files = append(files, f)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].entryKey() < files[j].entryKey() })
	return files, nil
}

func parseTextFile(fsys fs.FS, p string) (textFile, error) {
	raw, err := fs.ReadFile(fsys, p)
	if err != nil {
		return textFile{}, fmt.Errorf("content: read %s: %w", p, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return textFile{}, fmt.Errorf("content: %s: invalid JSON: %w", p, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return textFile{}, fmt.Errorf("content: %s: invalid JSON: data after the top-level value", p)
	}
	if _, ok := v.(map[string]any); !ok {
		return textFile{}, fmt.Errorf("content: %s: the top level must be a JSON object of text keys", p)
	}
	// Re-encoding sorts object keys, so the hash depends on the texts and
	// not on formatting.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return textFile{}, fmt.Errorf("content: %s: %w", p, err)
	}
	canonical := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if len(canonical) > maxPageBytes {
		return textFile{}, fmt.Errorf("content: %s: %d bytes of texts, more than the %d a page may hold", p, len(canonical), maxPageBytes)
	}
	sum := sha256.Sum256(canonical)
	return textFile{canonical: canonical, hash: hex.EncodeToString(sum[:])}, nil
}

// manifestHash hashes the sorted list of entries and their hashes.
func manifestHash(files []textFile) string {
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s=%s\n", f.entryKey(), f.hash)
	}
	return hex.EncodeToString(h.Sum(nil))
}
