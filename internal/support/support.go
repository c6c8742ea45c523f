package support

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/notify"
	"tenger/internal/ratelimit"
	"tenger/internal/store"
)

// Ticket states.
const (
	StatusOpen     = "open"
	StatusAnswered = "answered"
	StatusClosed   = "closed"
)

// Authors of messages.
const (
	ByUser    = "user"
	BySupport = "support"
)

// Limits.
const (
	MaxTitleLen    = 100
	MaxTextLen     = 2000
	MaxAttachments = 5
	MaxMessages    = 100
	TicketsPerDay  = 5
	// MaxPageSize bounds a page of the user's list.
	MaxPageSize     = 50
	DefaultPageSize = 10
	// maxOperatorLen bounds the operator name kept on a reply: room for a
	// name and the AWS request id the admin function adds to it.
	maxOperatorLen = 100
)

// Types are the kinds of ticket a user may open, in the order the web app
// offers them.
var Types = []string{"account", "security", "deposit", "withdrawal", "trading", "verification", "api", "other"}

// Attachments checks that upload ids belong to the user (internal/upload's
// service, when it is wired): an error refuses the message.
type Attachments interface {
	CheckOwned(ctx context.Context, uid string, ids []string) error
}

// Users finds a ticket owner's contact to tell them of an answer
// (*auth.Service).
type Users interface {
	User(ctx context.Context, uid string) (auth.User, error)
}

var _ Users = (*auth.Service)(nil)

// Options configure a Service.
type Options struct {
	Store store.Store
	// Attachments checks attachment ids; nil refuses messages with
	// attachments (CodeTicketAttachment).
	Attachments Attachments
	// Users and Notify tell a ticket's owner that support answered (both
	// optional: without them nobody is told, the ticket still shows it).
	Users  Users
	Notify notify.Sender
	Now    func() time.Time
	Log    zerolog.Logger
}

// Service is the help desk.
type Service struct {
	o       Options
	limiter *ratelimit.Limiter
}

// New builds the service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{o: o, limiter: ratelimit.New(o.Store, o.Now)}
}

// Ticket is a ticket without its messages.
type Ticket struct {
	ID        string `json:"id"`
	UID       string `json:"-"`
	Type      string `json:"type" doc:"account, security, deposit, withdrawal, trading, verification, api or other"`
	Title     string `json:"title"`
	Status    string `json:"status" doc:"open (waiting for support), answered (waiting for you) or closed"`
	CreatedAt int64  `json:"createdAt" doc:"Unix ms"`
	UpdatedAt int64  `json:"updatedAt" doc:"Unix ms of the last message or state change"`
	Messages  int    `json:"messages" doc:"number of messages, the description included"`
	LastBy    string `json:"lastBy" doc:"who wrote last: user or support"`
}

// Message is one message of a ticket (the first is the description).
type Message struct {
	Seq         int      `json:"seq"`
	By          string   `json:"by" doc:"user or support"`
	Operator    string   `json:"-"`
	Text        string   `json:"text"`
	Attachments []string `json:"attachments" doc:"upload ids"`
	At          int64    `json:"at" doc:"Unix ms"`
}

// Detail is a ticket with its messages, oldest first.
type Detail struct {
	Ticket
	Thread []Message `json:"thread"`
}

// NewTicket is what create_problem takes.
type NewTicket struct {
	Type        string
	Title       string
	Description string
	Attachments []string
}

func ticketKey(id string) store.Key { return store.Key{PK: "TICKET#" + id, SK: "T"} }
func messageKey(id string, seq int) store.Key {
	return store.Key{PK: "TICKET#" + id, SK: fmt.Sprintf("M#%04d", seq)}
}
func userListPK(uid string) string       { return "TICKETS#" + uid }
func queuePK(status string) string       { return "TICKETQ#" + status }
func sortKey(ms int64, id string) string { return fmt.Sprintf("%013d#%s", ms, id) }

// Create opens a ticket for uid with its description as the first message.
func (s *Service) Create(ctx context.Context, uid string, in NewTicket) (Detail, error) {
	if uid == "" {
		return Detail{}, apperr.New(apperr.CodeNotSignedIn)
	}
	typ := strings.ToLower(strings.TrimSpace(in.Type))
	if !slices.Contains(Types, typ) {
		return Detail{}, apperr.New(apperr.CodeTicketType, in.Type)
	}
	title, err := cleanTitle(in.Title)
	if err != nil {
		return Detail{}, err
	}
	text, err := cleanText(in.Description)
	if err != nil {
		return Detail{}, err
	}
	att, err := s.checkAttachments(ctx, uid, in.Attachments)
	if err != nil {
		return Detail{}, err
	}
	d, err := s.limiter.Allow(ctx, "ticket-day:"+uid, TicketsPerDay, 24*time.Hour)
	if err != nil {
		return Detail{}, internal(err)
	}
	if !d.Allowed {
		return Detail{}, apperr.New(apperr.CodeTicketDailyLimit, TicketsPerDay).
			WithData(map[string]int{"retryAfter": d.RetryAfterSeconds()})
	}
	now := s.o.Now().UnixMilli()
	t := Ticket{ID: newID(), UID: uid, Type: typ, Title: title, Status: StatusOpen, CreatedAt: now, UpdatedAt: now,
		Messages: 1, LastBy: ByUser}
	m := Message{Seq: 1, By: ByUser, Text: text, Attachments: att, At: now}
	err = s.o.Store.Transact(ctx, []store.Op{
		store.PutOp(t.item(), store.ItemNotExists()),
		store.PutOp(m.item(t.ID), store.ItemNotExists()),
	})
	if err != nil {
		return Detail{}, internal(err)
	}
	s.o.Log.Info().Str("uid", uid).Str("ticket", t.ID).Str("type", typ).Msg("support ticket opened")
	return Detail{Ticket: t, Thread: []Message{m}}, nil
}

// Get returns the caller's ticket with its messages; another user's
// ticket answers CodeTicketNotFound, as a missing one does.
func (s *Service) Get(ctx context.Context, uid, id string) (Detail, error) {
	t, err := s.owned(ctx, uid, id)
	if err != nil {
		return Detail{}, err
	}
	return s.detail(ctx, t)
}

// Reply adds the caller's message to their ticket; an answered ticket is
// open again (waiting for support), a closed one takes no more.
func (s *Service) Reply(ctx context.Context, uid, id, text string, attachments []string) (Detail, error) {
	text, err := cleanText(text)
	if err != nil {
		return Detail{}, err
	}
	t, err := s.owned(ctx, uid, id)
	if err != nil {
		return Detail{}, err
	}
	att, err := s.checkAttachments(ctx, uid, attachments)
	if err != nil {
		return Detail{}, err
	}
	if err := s.add(ctx, t, Message{By: ByUser, Text: text, Attachments: att}, StatusOpen); err != nil {
		return Detail{}, err
	}
	return s.Get(ctx, uid, id)
}

// ListFilter selects a page of the user's tickets.
type ListFilter struct {
	// Status is open, answered or closed; "" for all.
	Status         string
	Page, PageSize int
}

// List returns a page of the user's tickets, newest first, and how many
// match in all.
func (s *Service) List(ctx context.Context, uid string, f ListFilter) ([]Ticket, int, error) {
	if uid == "" {
		return nil, 0, apperr.New(apperr.CodeNotSignedIn)
	}
	f.Status = strings.ToLower(strings.TrimSpace(f.Status))
	if f.Status != "" && f.Status != StatusOpen && f.Status != StatusAnswered && f.Status != StatusClosed {
		return nil, 0, apperr.New(apperr.CodeTicketStatus, f.Status)
	}
	if f.Page < 1 {
		f.Page = 1
	}
	if f.PageSize < 1 {
		f.PageSize = DefaultPageSize
	}
	f.PageSize = min(f.PageSize, MaxPageSize)
	q := store.Query{Index: store.IndexGSI1, PK: userListPK(uid), Desc: true, Limit: 200}
	var all []Ticket
	for {
		page, err := s.o.Store.Query(ctx, q)
		if err != nil {
			return nil, 0, internal(err)
		}
		for _, it := range page.Items {
			if t := ticketOf(it); t.UID == uid && (f.Status == "" || t.Status == f.Status) {
				all = append(all, t)
			}
		}
		if page.Cursor == "" {
			break
		}
		q.Cursor = page.Cursor
	}
	start := (f.Page - 1) * f.PageSize
	if start >= len(all) {
		return []Ticket{}, len(all), nil
	}
	return all[start:min(start+f.PageSize, len(all))], len(all), nil
}

// Queue lists the tickets in a state for the operator, the longest
// waiting first (all states when status is "").
func (s *Service) Queue(ctx context.Context, status string) ([]Ticket, error) {
	states := []string{StatusOpen, StatusAnswered, StatusClosed}
	if status != "" {
		if !slices.Contains(states, status) {
			return nil, apperr.New(apperr.CodeTicketStatus, status)
		}
		states = []string{status}
	}
	var out []Ticket
	for _, st := range states {
		q := store.Query{Index: store.IndexGSI2, PK: queuePK(st), Limit: 200}
		for {
			page, err := s.o.Store.Query(ctx, q)
			if err != nil {
				return nil, internal(err)
			}
			for _, it := range page.Items {
				out = append(out, ticketOf(it))
			}
			if page.Cursor == "" {
				break
			}
			q.Cursor = page.Cursor
		}
	}
	return out, nil
}

// Show returns any ticket with its messages (operator).
func (s *Service) Show(ctx context.Context, id string) (Detail, error) {
	t, err := s.read(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	return s.detail(ctx, t)
}

// Answer adds support's reply to a ticket, which becomes answered, and
// tells its owner (operator).
func (s *Service) Answer(ctx context.Context, id, operator, text string) (Detail, error) {
	text, err := cleanText(text)
	if err != nil {
		return Detail{}, err
	}
	t, err := s.read(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	if err := s.add(ctx, t, Message{By: BySupport, Operator: clip(strings.TrimSpace(operator), maxOperatorLen), Text: text}, StatusAnswered); err != nil {
		return Detail{}, err
	}
	s.tell(ctx, t)
	return s.Show(ctx, id)
}

// Close closes a ticket (operator): nobody may add to it any more.
func (s *Service) Close(ctx context.Context, id, operator string) error {
	t, err := s.read(ctx, id)
	if err != nil {
		return err
	}
	if t.Status == StatusClosed {
		return apperr.New(apperr.CodeTicketClosed)
	}
	now := s.o.Now().UnixMilli()
	upd := store.NewUpdate().Set("status", StatusClosed).Set("updated", now).Set("closedBy", clip(strings.TrimSpace(operator), maxOperatorLen)).
		Set(store.AttrGSI2PK, queuePK(StatusClosed)).Set(store.AttrGSI2SK, sortKey(now, t.ID))
	_, err = s.o.Store.Update(ctx, ticketKey(t.ID), upd, store.And(store.ItemExists(), store.Compare("status", store.CmpNe, StatusClosed)))
	if errors.Is(err, store.ErrConditionFailed) {
		return apperr.New(apperr.CodeTicketClosed) // closed meanwhile
	}
	if err != nil {
		return internal(err)
	}
	s.o.Log.Info().Str("ticket", t.ID).Str("operator", operator).Msg("support ticket closed")
	return nil
}

// add appends m to t and moves t to status, in one transaction on
// condition that t is as read (not closed, the same message count); a
// message that another one overtook is tried again on the ticket as it
// now is.
func (s *Service) add(ctx context.Context, t Ticket, m Message, status string) error {
	for attempt := 0; ; attempt++ {
		if t.Status == StatusClosed {
			return apperr.New(apperr.CodeTicketClosed)
		}
		if t.Messages >= MaxMessages {
			return apperr.New(apperr.CodeTicketFull, MaxMessages)
		}
		now := s.o.Now().UnixMilli()
		m.Seq, m.At = t.Messages+1, now
		upd := store.NewUpdate().Set("status", status).Set("updated", now).Set("msgs", m.Seq).Set("lastBy", m.By).
			Set(store.AttrGSI2PK, queuePK(status)).Set(store.AttrGSI2SK, sortKey(now, t.ID))
		err := s.o.Store.Transact(ctx, []store.Op{
			store.UpdateOp(ticketKey(t.ID), upd, store.And(store.ItemExists(), store.Eq("msgs", t.Messages),
				store.Compare("status", store.CmpNe, StatusClosed))),
			store.PutOp(m.item(t.ID), store.ItemNotExists()),
		})
		if err == nil {
			return nil
		}
		if !errors.Is(err, store.ErrConditionFailed) || attempt == 4 {
			return internal(err)
		}
		if t, err = s.read(ctx, t.ID); err != nil {
			return err
		}
	}
}

// owned reads a ticket of uid: CodeTicketNotFound when there is none or it
// is another user's.
func (s *Service) owned(ctx context.Context, uid, id string) (Ticket, error) {
	if uid == "" {
		return Ticket{}, apperr.New(apperr.CodeNotSignedIn)
	}
	t, err := s.read(ctx, id)
	if err != nil {
		return Ticket{}, err
	}
	if t.UID != uid {
		return Ticket{}, apperr.New(apperr.CodeTicketNotFound)
	}
	return t, nil
}

func (s *Service) read(ctx context.Context, id string) (Ticket, error) {
	id = strings.TrimSpace(id)
	if !validID(id) {
		return Ticket{}, apperr.New(apperr.CodeTicketNotFound)
	}
	it, err := s.o.Store.Get(ctx, ticketKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return Ticket{}, apperr.New(apperr.CodeTicketNotFound)
	}
	if err != nil {
		return Ticket{}, internal(err)
	}
	return ticketOf(it), nil
}

func (s *Service) detail(ctx context.Context, t Ticket) (Detail, error) {
	d := Detail{Ticket: t, Thread: []Message{}}
	q := store.Query{PK: ticketKey(t.ID).PK, SK: store.SKPrefixed("M#"), Limit: 200}
	for {
		page, err := s.o.Store.Query(ctx, q)
		if err != nil {
			return Detail{}, internal(err)
		}
		for _, it := range page.Items {
			d.Thread = append(d.Thread, messageOf(it))
		}
		if page.Cursor == "" {
			return d, nil
		}
		q.Cursor = page.Cursor
	}
}

// tell lets the owner know support answered (best effort: the ticket
// shows the answer whether or not the message goes out).
func (s *Service) tell(ctx context.Context, t Ticket) {
	if s.o.Users == nil || s.o.Notify == nil {
		return
	}
	u, err := s.o.Users.User(ctx, t.UID)
	if err != nil {
		s.o.Log.Warn().Err(err).Str("ticket", t.ID).Msg("support: owner not found to tell of the answer")
		return
	}
	m := notify.Message{Subject: "Tenger support answered your ticket",
		Text: fmt.Sprintf("Tenger support answered your ticket %s (%q). Sign in to read the answer; do not reply to this message.", t.ID, clip(t.Title, 60))}
	switch {
	case u.Email != "":
		m.Channel, m.To = notify.ChannelEmail, u.Email
	case u.Mobile != "":
		m.Channel, m.To = notify.ChannelSMS, "+"+u.CountryCode+u.Mobile
		m.Text = "Tenger support answered your ticket " + t.ID + ". Sign in to read it."
	default:
		return
	}
	if err := s.o.Notify.Send(context.WithoutCancel(ctx), m); err != nil {
		s.o.Log.Warn().Err(err).Str("ticket", t.ID).Msg("support: owner not told of the answer")
	}
}

func (s *Service) checkAttachments(ctx context.Context, uid string, ids []string) ([]string, error) {
	out := []string{}
	seen := map[string]bool{}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" || seen[id] {
			continue
		}
		if len(id) > 128 {
			return nil, apperr.New(apperr.CodeTicketAttachment)
		}
		seen[id] = true
		out = append(out, id)
	}
	if len(out) > MaxAttachments {
		return nil, apperr.New(apperr.CodeTicketAttachments, MaxAttachments)
	}
	if len(out) == 0 {
		return out, nil
	}
	if s.o.Attachments == nil {
		return nil, apperr.New(apperr.CodeTicketAttachment)
	}
	if err := s.o.Attachments.CheckOwned(ctx, uid, out); err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) && ae.Entry.Code != apperr.CodeInternal {
			// The upload service's own answer (not found, not yours) is
			// the user's: one of the attachments is not theirs to use.
			return nil, apperr.New(apperr.CodeTicketAttachment).WithCause(err)
		}
		return nil, internal(err)
	}
	return out, nil
}

func (t Ticket) item() store.Item {
	k := ticketKey(t.ID)
	return store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "id": t.ID, "uid": t.UID, "type": t.Type, "title": t.Title,
		"status": t.Status, "created": t.CreatedAt, "updated": t.UpdatedAt, "msgs": t.Messages, "lastBy": t.LastBy,
		store.AttrGSI1PK: userListPK(t.UID), store.AttrGSI1SK: sortKey(t.CreatedAt, t.ID),
		store.AttrGSI2PK: queuePK(t.Status), store.AttrGSI2SK: sortKey(t.UpdatedAt, t.ID)}
}

func ticketOf(it store.Item) Ticket {
	return Ticket{ID: it.Str("id"), UID: it.Str("uid"), Type: it.Str("type"), Title: it.Str("title"), Status: it.Str("status"),
		CreatedAt: it.Int("created"), UpdatedAt: it.Int("updated"), Messages: int(it.Int("msgs")), LastBy: it.Str("lastBy")}
}

func (m Message) item(ticket string) store.Item {
	k := messageKey(ticket, m.Seq)
	att := make([]any, len(m.Attachments))
	for i, a := range m.Attachments {
		att[i] = a
	}
	it := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "seq": m.Seq, "by": m.By, "text": m.Text, "att": att, "at": m.At}
	if m.Operator != "" {
		it["operator"] = m.Operator
	}
	return it
}

func messageOf(it store.Item) Message {
	m := Message{Seq: int(it.Int("seq")), By: it.Str("by"), Operator: it.Str("operator"), Text: it.Str("text"),
		At: it.Int("at"), Attachments: []string{}}
	if l, ok := it["att"].([]any); ok {
		for _, v := range l {
			if s, ok := v.(string); ok {
				m.Attachments = append(m.Attachments, s)
			}
		}
	}
	return m
}

// cleanTitle trims a title and checks it: 1 to MaxTitleLen printable
// characters on one line.
func cleanTitle(s string) (string, error) {
	s = strings.TrimSpace(s)
	n := utf8.RuneCountInString(s)
	if n == 0 || n > MaxTitleLen || !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
	}) {
		return "", apperr.New(apperr.CodeTicketTitle, MaxTitleLen)
	}
	return s, nil
}

// cleanText trims a message and checks it: 1 to MaxTextLen characters,
// line breaks and tabs allowed, other control and format characters not
// (they would hide text from the reader: bidirectional overrides).
func cleanText(s string) (string, error) {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
	n := utf8.RuneCountInString(s)
	if n == 0 || n > MaxTextLen || !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool {
		return r != '\n' && r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r))
	}) {
		return "", apperr.New(apperr.CodeTicketText, MaxTextLen)
	}
	return s, nil
}

// idEncoding writes ticket ids in lower-case base32 without padding: short
// enough to read out on the phone, random enough (60 bits) that two never
// meet (the write is conditional anyway).
var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

const idLen = 13 // "t" and 12 characters

func newID() string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		panic("support: no randomness: " + err.Error())
	}
	return "t" + idEncoding.EncodeToString(b)[:idLen-1]
}

func validID(id string) bool {
	if len(id) != idLen || id[0] != 't' {
		return false
	}
	for _, c := range id[1:] {
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func internal(err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return err
	}
	return apperr.New(apperr.CodeInternal).WithCause(err)
}
