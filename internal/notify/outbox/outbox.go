// Package outbox is the local adapter of the notify port: instead of sending
// SMS and e-mail it appends them to a durable JSON-lines file
// (<dir>/outbox.jsonl, fsynced per message) and serves them at
// GET /dev/outbox, so a developer or a browser test can read the code that
// "was sent". It is for the local binary only; it never logs codes.
package outbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"tenger/internal/notify"
)

// FileName is the outbox file inside the directory given to Open.
const FileName = "outbox.jsonl"

// Entry is one recorded message.
type Entry struct {
	To            string    `json:"to"`
	Channel       string    `json:"channel"`
	OperationType int       `json:"operationType"`
	Code          string    `json:"code"`
	Subject       string    `json:"subject,omitempty"`
	Text          string    `json:"text"`
	SentAt        time.Time `json:"sentAt"`
}

// Outbox is the local notify adapter.
type Outbox struct {
	mu      sync.Mutex
	f       *os.File
	entries []Entry
	now     func() time.Time
}

var (
	_ notify.Sender = (*Outbox)(nil)
	_ http.Handler  = (*Outbox)(nil)
)

// Open opens (creating) the outbox in dir and loads what it holds. A torn
// last line left by a crash is skipped.
func Open(dir string) (*Outbox, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	path := filepath.Join(dir, FileName)
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	o := &Outbox{now: time.Now}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			o.entries = append(o.entries, e)
		}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		// Terminate a torn line so the next entry starts on its own line.
		if _, err := f.Write([]byte{'\n'}); err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("outbox: %w", err)
		}
	}
	o.f = f
	return o, nil
}

// Send implements notify.Sender: the message is on disk when Send returns.
func (o *Outbox) Send(ctx context.Context, m notify.Message) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	subject, text := notify.Render(m)
	if m.Channel == notify.ChannelSMS {
		subject = ""
	}
	e := Entry{To: m.To, Channel: m.Channel, OperationType: m.OperationType, Code: m.Code, Subject: subject, Text: text}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.f == nil {
		return fmt.Errorf("outbox: closed")
	}
	e.SentAt = o.now().UTC()
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	if _, err := o.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("outbox: write: %w", err)
	}
	if err := o.f.Sync(); err != nil {
		return fmt.Errorf("outbox: sync: %w", err)
	}
	o.entries = append(o.entries, e)
	return nil
}

// List returns every recorded message, newest last.
func (o *Outbox) List(ctx context.Context) ([]Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]Entry(nil), o.entries...), nil
}

// ServeHTTP serves GET /dev/outbox: a JSON array of entries, newest last,
// filtered by ?to= and ?channel= when given.
func (o *Outbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	all, err := o.List(r.Context())
	if err != nil {
		http.Error(w, "outbox unavailable", http.StatusServiceUnavailable)
		return
	}
	to, channel := r.URL.Query().Get("to"), r.URL.Query().Get("channel")
	out := make([]Entry, 0, len(all))
	for _, e := range all {
		if (to == "" || e.To == to) && (channel == "" || e.Channel == channel) {
			out = append(out, e)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(out)
}

// Close closes the file.
func (o *Outbox) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.f == nil {
		return nil
	}
	err := o.f.Close()
	o.f = nil
	return err
}
