package content

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/store"
)

// Errors of Page, shown to clients as the GraphQL error message.
var (
	// ErrEmptyID: page was asked for with an empty id.
	ErrEmptyID = errors.New("page id must not be empty")
	// ErrPageNotFound: no texts exist under the id; the returned error reads
	// "page not found: <id>".
	ErrPageNotFound = errors.New("page not found")
)

// DefaultCacheTTL is how long Service keeps a page in memory. Texts change
// only with a deployment, so a short TTL is enough to pick up a reload by
// another process while sparing the store a read per request.
const DefaultCacheTTL = 30 * time.Second

// Page is the texts of one page in one locale.
type Page struct {
	ID string `json:"id"`
	// Locale is the locale actually served (after the spec §9 mapping and
	// the English fallback), e.g. "mn-MN".
	Locale string `json:"locale"`
	// Translations is the page's JSON object of text keys.
	Translations json.RawMessage `json:"translations"`
}

// Options configure a Service.
type Options struct {
	// ReadToken, when not empty, is the static read token every request must
	// carry as "Authorization: Bearer <token>" (spec §6). Empty leaves the
	// service open.
	ReadToken string
	// CacheTTL is how long pages stay cached in memory; 0 means
	// DefaultCacheTTL and a negative value disables the cache.
	CacheTTL time.Duration
	// AllowedOrigins lists the origins allowed to call the handler from a
	// browser on another origin (CORS); "*" allows any. Empty sends no CORS
	// headers (same-origin use, as under tenger serve).
	AllowedOrigins []string
	// Logger receives failures; nil means no logging.
	Logger *zerolog.Logger
}

// Service serves page texts from the store.
type Service struct {
	st   store.Store
	opts Options
	log  zerolog.Logger
	now  func() time.Time

	mu    sync.Mutex
	cache map[cacheKey]cacheEntry
}

type cacheKey struct{ id, locale string }

type cacheEntry struct {
	page    Page
	expires time.Time
}

// New returns a Service reading the texts that Load wrote into st.
func New(st store.Store, opts Options) *Service {
	if opts.CacheTTL == 0 {
		opts.CacheTTL = DefaultCacheTTL
	}
	log := zerolog.Nop()
	if opts.Logger != nil {
		log = *opts.Logger
	}
	return &Service{st: st, opts: opts, log: log, now: time.Now, cache: map[cacheKey]cacheEntry{}}
}

// pageIDPattern is the shape of page ids (and text file names). Ids that do
// not match cannot exist, so they are reported as not found without a read.
var pageIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$`)

// pageKey is the store key of a page's texts in one locale.
func pageKey(id, locale string) store.Key {
	return store.Key{PK: pagePKPrefix + id, SK: locale}
}

// Page returns the texts of page id for the requested locale, which is
// mapped by ResolveLocale. When the mapped locale has no texts for the page
// (a page whose Mongolian file is not written yet), the English texts are
// served rather than nothing.
func (s *Service) Page(ctx context.Context, id, locale string) (Page, error) {
	if id == "" {
		return Page{}, ErrEmptyID
	}
	if !pageIDPattern.MatchString(id) {
		return Page{}, fmt.Errorf("%w: %s", ErrPageNotFound, id)
	}
	loc := ResolveLocale(id, locale)
	ck := cacheKey{id, loc}
	if s.opts.CacheTTL > 0 {
		s.mu.Lock()
		e, ok := s.cache[ck]
		s.mu.Unlock()
		if ok && s.now().Before(e.expires) {
			return e.page, nil
		}
	}
	pg, err := s.read(ctx, id, loc)
	if errors.Is(err, store.ErrNotFound) && loc != LocaleEnglish {
		pg, err = s.read(ctx, id, LocaleEnglish)
	}
	if errors.Is(err, store.ErrNotFound) {
		// Misses are not cached: ids come from clients, so caching them
		// would let anyone grow the map.
		return Page{}, fmt.Errorf("%w: %s", ErrPageNotFound, id)
	}
	if err != nil {
		return Page{}, err
	}
	if s.opts.CacheTTL > 0 {
		s.mu.Lock()
		s.cache[ck] = cacheEntry{page: pg, expires: s.now().Add(s.opts.CacheTTL)}
		s.mu.Unlock()
	}
	return pg, nil
}

func (s *Service) read(ctx context.Context, id, locale string) (Page, error) {
	it, err := s.st.Get(ctx, pageKey(id, locale))
	if err != nil {
		return Page{}, err
	}
	raw := it.Str(attrTranslations)
	if !json.Valid([]byte(raw)) {
		return Page{}, fmt.Errorf("content: stored translations of %s/%s are not valid JSON", id, locale)
	}
	return Page{ID: id, Locale: locale, Translations: json.RawMessage(raw)}, nil
}

// Execute runs one GraphQL request against the service; a transport that is
// not net/http (a Lambda function) can call it directly after checking the
// token with Authorized.
func (s *Service) Execute(ctx context.Context, req Request) Response {
	x := &executor{src: s, log: s.log}
	return x.execute(ctx, req)
}

// Authorized reports whether an Authorization header value satisfies the
// read-token rule.
func (s *Service) Authorized(authorization string) bool {
	return tokenMatches(s.opts.ReadToken, authorization)
}

// Handler returns the GraphQL-over-HTTP handler; mount it at /graphql.
func (s *Service) Handler() http.Handler {
	return newHandler(s, s.opts, s.log)
}
