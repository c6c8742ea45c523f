package paymethod

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/store"
)

// Limits.
const (
	// MaxMethods bounds one user's payment methods.
	MaxMethods = 20
	// MaxNameLen bounds the account holder's name, in characters.
	MaxNameLen = 64
	// maxAttempts bounds the retries of a write whose version another
	// write of the same method overtook.
	maxAttempts = 5
)

// Options configure a Service.
type Options struct {
	Store store.Store
	// Banks lists the banks a bank transfer may name: the wallet's bank
	// list (wallet.Banks), passed in rather than imported, so this package
	// does not depend on the wallet and everything the wallet imports.
	// Unset or empty, the bank kind is not offered.
	Banks func() []Bank
	// HolderName returns the caller's verified real name; when set, it is
	// every method's userName and a different name given is refused
	// (CodePayHolderMismatch), an empty one refuses the method
	// (CodePayHolderUnverified). Unset, the name given is taken as it is.
	HolderName func(ctx context.Context, uid string) (string, error)
	Now        func() time.Time
	Log        zerolog.Logger
}

// Service keeps the users' payment methods.
type Service struct {
	o Options
}

// New builds the service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{o: o}
}

// Method is one of a user's payment methods (spec: id, title, userName,
// account).
type Method struct {
	ID   string `json:"id"`
	UID  string `json:"-"`
	Kind string `json:"kind" doc:"bank, qpay or socialpay"`
	// Bank is the bank's code (the bank kind only).
	Bank string `json:"bank,omitempty"`
	// Title is the bank's name for a bank transfer, the kind's name
	// otherwise, as it was when the method was saved (a bank later taken
	// off the list still shows its name); TitleMN in Mongolian.
	Title   string `json:"title"`
	TitleMN string `json:"titleMn"`
	// Account is the IBAN (MN and 18 digits) or the phone number (8 digits).
	Account  string `json:"account"`
	UserName string `json:"userName" doc:"account holder: the user's real name"`
	Open     bool   `json:"open" doc:"true when ads may offer it"`
	Fiat     string `json:"fiat" doc:"MNT"`
	Ctime    int64  `json:"ctime" doc:"Unix ms"`
	Mtime    int64  `json:"mtime" doc:"Unix ms of the last change"`
	// ver is the item's version the method was read at.
	ver int64
}

// NewMethod is what add and update take.
type NewMethod struct {
	Kind string
	// Bank is the bank's code, for a bank transfer.
	Bank string
	// Account is the IBAN as typed (18 digits, or MN and 18 digits) or the
	// phone number.
	Account string
	// UserName is the account holder; with Options.HolderName set it may be
	// left empty and must otherwise be the verified name.
	UserName string
}

func partition(uid string) string { return "P2PPAY#" + uid }
func methodKey(uid, id string) store.Key {
	return store.Key{PK: partition(uid), SK: "M#" + id}
}
func claimKey(uid, kind, account string) store.Key {
	return store.Key{PK: partition(uid), SK: "A#" + kind + "#" + account}
}
func countKey(uid string) store.Key { return store.Key{PK: partition(uid), SK: "N"} }

// Names of the operations of a transaction, to tell which condition failed.
const (
	opMethod = "method"
	opClaim  = "claim"
	opCount  = "count"
	// opOldClaim is the claim an update moves away from.
	opOldClaim = "oldClaim"
)

// List returns the caller's payment methods, open and closed, oldest first.
func (s *Service) List(ctx context.Context, uid string) ([]Method, error) {
	if uid == "" {
		return nil, apperr.New(apperr.CodeNotSignedIn)
	}
	out := []Method{}
	q := store.Query{PK: partition(uid), SK: store.SKPrefixed("M#"), Limit: 100}
	for {
		page, err := s.o.Store.Query(ctx, q)
		if err != nil {
			return nil, internal(err)
		}
		for _, it := range page.Items {
			out = append(out, methodOf(it))
		}
		if page.Cursor == "" {
			break
		}
		q.Cursor = page.Cursor
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Ctime != out[j].Ctime {
			return out[i].Ctime < out[j].Ctime
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// Get returns the caller's open methods of ids, in the order given (an id
// given twice once), for an ad to offer: any id that is not an open method
// of the caller answers CodePayMethodNotFound.
func (s *Service) Get(ctx context.Context, uid string, ids []string) ([]Method, error) {
	if uid == "" {
		return nil, apperr.New(apperr.CodeNotSignedIn)
	}
	want := make([]string, 0, len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if !validID(id) {
			return nil, apperr.New(apperr.CodePayMethodNotFound)
		}
		if !seen[id] {
			seen[id] = true
			want = append(want, id)
		}
	}
	if len(want) == 0 {
		return []Method{}, nil
	}
	// One query of the caller's partition (at most MaxMethods methods)
	// costs less than a read per id, and reaches nobody else's methods.
	all, err := s.List(ctx, uid)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]Method, len(all))
	for _, m := range all {
		byID[m.ID] = m
	}
	out := make([]Method, 0, len(want))
	for _, id := range want {
		m, ok := byID[id]
		if !ok || !m.Open {
			return nil, apperr.New(apperr.CodePayMethodNotFound)
		}
		out = append(out, m)
	}
	return out, nil
}

// Add saves a new, open payment method for the caller.
func (s *Service) Add(ctx context.Context, uid string, in NewMethod) (Method, error) {
	if uid == "" {
		return Method{}, apperr.New(apperr.CodeNotSignedIn)
	}
	m, err := s.check(ctx, uid, in)
	if err != nil {
		return Method{}, err
	}
	now := s.o.Now().UnixMilli()
	m.UID, m.Open, m.Ctime, m.Mtime, m.ver = uid, true, now, now, 1
	for attempt := 0; ; attempt++ {
		m.ID = newID()
		ops := []store.Op{
			store.PutOp(m.claim(), store.ItemNotExists()).Named(opClaim),
			// The count holds the limit across concurrent adds: each one
			// raises it only while it is below MaxMethods.
			store.UpdateOp(countKey(uid), store.NewUpdate().AddInt("n", 1),
				store.Or(store.NotExists("n"), store.Compare("n", store.CmpLt, MaxMethods))).Named(opCount),
			store.PutOp(m.item(), store.ItemNotExists()).Named(opMethod),
		}
		err = s.o.Store.Transact(ctx, ops)
		name, failed := store.FailedCondition(err, ops)
		switch {
		case err == nil:
			s.o.Log.Info().Str("uid", uid).Str("method", m.ID).Str("kind", m.Kind).Msg("p2p payment method added")
			return m, nil
		case failed && name == opClaim:
			return Method{}, apperr.New(apperr.CodePayDuplicate)
		case failed && name == opCount:
			return Method{}, apperr.New(apperr.CodePayTooMany, MaxMethods)
		case failed && name == opMethod && attempt < maxAttempts:
			continue // an id drawn twice: draw another
		default:
			return Method{}, internal(err)
		}
	}
}

// Update replaces a method of the caller's with in (kind, bank, account
// and holder); it keeps its id, its state (open or closed) and its
// creation time.
func (s *Service) Update(ctx context.Context, uid, id string, in NewMethod) (Method, error) {
	if uid == "" {
		return Method{}, apperr.New(apperr.CodeNotSignedIn)
	}
	next, err := s.check(ctx, uid, in)
	if err != nil {
		return Method{}, err
	}
	for attempt := 0; ; attempt++ {
		cur, err := s.read(ctx, uid, id)
		if err != nil {
			return Method{}, err
		}
		m := cur
		m.Kind, m.Bank, m.Title, m.TitleMN, m.Account, m.UserName = next.Kind, next.Bank, next.Title, next.TitleMN, next.Account, next.UserName
		m.Mtime, m.ver = s.o.Now().UnixMilli(), cur.ver+1
		upd := store.NewUpdate().Set("kind", m.Kind).Set("bank", m.Bank).Set("title", m.Title).Set("titleMn", m.TitleMN).
			Set("account", m.Account).Set("userName", m.UserName).Set("mtime", m.Mtime).Set(store.AttrVersion, m.ver)
		ops := []store.Op{store.UpdateOp(methodKey(uid, cur.ID), upd, store.And(store.ItemExists(), store.VersionIs(cur.ver))).Named(opMethod)}
		if m.claim().Key() != cur.claim().Key() {
			ops = append(ops,
				store.DeleteOp(cur.claim().Key(), ownClaim(cur.ID)).Named(opOldClaim),
				store.PutOp(m.claim(), store.ItemNotExists()).Named(opClaim))
		}
		err = s.o.Store.Transact(ctx, ops)
		name, failed := store.FailedCondition(err, ops)
		switch {
		case err == nil:
			return m, nil
		case failed && name == opClaim:
			return Method{}, apperr.New(apperr.CodePayDuplicate)
		case failed && name == opMethod && attempt < maxAttempts:
			continue // changed or deleted meanwhile: read it again
		default:
			return Method{}, internal(err)
		}
	}
}

// SetOpen turns a method of the caller's on (open: ads may offer it) or
// off.
func (s *Service) SetOpen(ctx context.Context, uid, id string, open bool) (Method, error) {
	for attempt := 0; ; attempt++ {
		m, err := s.read(ctx, uid, id)
		if err != nil {
			return Method{}, err
		}
		if m.Open == open {
			return m, nil
		}
		m.Open, m.Mtime, m.ver = open, s.o.Now().UnixMilli(), m.ver+1
		upd := store.NewUpdate().Set("open", open).Set("mtime", m.Mtime).Set(store.AttrVersion, m.ver)
		_, err = s.o.Store.Update(ctx, methodKey(uid, m.ID), upd, store.And(store.ItemExists(), store.VersionIs(m.ver-1)))
		switch {
		case err == nil:
			return m, nil
		case errors.Is(err, store.ErrConditionFailed) && attempt < maxAttempts:
			continue
		default:
			return Method{}, internal(err)
		}
	}
}

// Delete removes a method of the caller's, in use by an ad or not (the
// ads keep their own copy of what they show).
func (s *Service) Delete(ctx context.Context, uid, id string) error {
	for attempt := 0; ; attempt++ {
		m, err := s.read(ctx, uid, id)
		if err != nil {
			return err
		}
		ops := []store.Op{
			store.DeleteOp(methodKey(uid, m.ID), store.And(store.ItemExists(), store.VersionIs(m.ver))).Named(opMethod),
			store.DeleteOp(m.claim().Key(), ownClaim(m.ID)).Named(opClaim),
			// Every method was counted when it was added, so the count is at
			// least 1 here; a count that is not is a fault to see, not to
			// drive below zero (which would lift the limit).
			store.UpdateOp(countKey(uid), store.NewUpdate().AddInt("n", -1), store.Ge("n", 1)).Named(opCount),
		}
		err = s.o.Store.Transact(ctx, ops)
		name, failed := store.FailedCondition(err, ops)
		switch {
		case err == nil:
			s.o.Log.Info().Str("uid", uid).Str("method", m.ID).Str("kind", m.Kind).Msg("p2p payment method deleted")
			return nil
		case failed && name == opMethod && attempt < maxAttempts:
			continue // changed or deleted meanwhile: read it again
		default:
			return internal(err)
		}
	}
}

// check validates what add or update was given against the kind's rules
// and returns the method's fields (kind, bank, title, account, holder).
func (s *Service) check(ctx context.Context, uid string, in NewMethod) (Method, error) {
	k, ok := s.kind(in.Kind)
	if !ok {
		return Method{}, apperr.New(apperr.CodePayKindUnknown, in.Kind)
	}
	m := Method{Kind: k.Code, Title: k.Name, TitleMN: k.NameMN, Fiat: k.Fiat}
	switch k.Code {
	case KindBank:
		b, ok := bankOf(k, in.Bank)
		if !ok {
			return Method{}, apperr.New(apperr.CodePayBankUnknown)
		}
		iban, err := coins.NormalizeIBAN(in.Account)
		if err != nil {
			return Method{}, ibanError(err)
		}
		m.Bank, m.Title, m.TitleMN, m.Account = b.Code, b.Name, b.NameMN, iban
	default:
		phone, ok := normalizePhone(in.Account)
		if !ok {
			return Method{}, apperr.New(apperr.CodePayPhone, k.Name)
		}
		m.Account = phone
	}
	name, err := s.holder(ctx, uid, in.UserName)
	if err != nil {
		return Method{}, err
	}
	m.UserName = name
	return m, nil
}

// holder is the account holder's name of a new or updated method: the
// verified name when Options.HolderName is set (a name given must match
// it), else the name given.
func (s *Service) holder(ctx context.Context, uid, given string) (string, error) {
	given = strings.Join(strings.Fields(given), " ")
	if s.o.HolderName == nil {
		if n := utf8.RuneCountInString(given); n == 0 || n > MaxNameLen || !cleanText(given) {
			return "", apperr.New(apperr.CodePayHolderName, MaxNameLen)
		}
		return given, nil
	}
	verified, err := s.o.HolderName(ctx, uid)
	if err != nil {
		return "", internal(err)
	}
	verified = strings.Join(strings.Fields(verified), " ")
	if verified == "" {
		return "", apperr.New(apperr.CodePayHolderUnverified)
	}
	// Letter case and spacing are how people type a name, not a different
	// person: "BOLD Bat" is Bold Bat.
	if given != "" && !strings.EqualFold(given, verified) {
		return "", apperr.New(apperr.CodePayHolderMismatch)
	}
	return verified, nil
}

// read returns a method of uid: CodePayMethodNotFound when there is none
// (under uid's partition, so another user's id is none too).
func (s *Service) read(ctx context.Context, uid, id string) (Method, error) {
	if uid == "" {
		return Method{}, apperr.New(apperr.CodeNotSignedIn)
	}
	id = strings.TrimSpace(id)
	if !validID(id) {
		return Method{}, apperr.New(apperr.CodePayMethodNotFound)
	}
	it, err := s.o.Store.Get(ctx, methodKey(uid, id))
	if errors.Is(err, store.ErrNotFound) {
		return Method{}, apperr.New(apperr.CodePayMethodNotFound)
	}
	if err != nil {
		return Method{}, internal(err)
	}
	return methodOf(it), nil
}

// ownClaim is the condition under which a method may drop its account
// claim: the claim is its own, or there is none.
func ownClaim(id string) store.Cond {
	return store.Or(store.ItemNotExists(), store.Eq("id", id))
}

func (m Method) item() store.Item {
	k := methodKey(m.UID, m.ID)
	return store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "id": m.ID, "uid": m.UID, "kind": m.Kind, "bank": m.Bank,
		"title": m.Title, "titleMn": m.TitleMN, "account": m.Account, "userName": m.UserName, "open": m.Open,
		"fiat": m.Fiat, "ctime": m.Ctime, "mtime": m.Mtime, store.AttrVersion: m.ver}
}

func (m Method) claim() store.Item {
	k := claimKey(m.UID, m.Kind, m.Account)
	return store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "id": m.ID}
}

func methodOf(it store.Item) Method {
	return Method{ID: it.Str("id"), UID: it.Str("uid"), Kind: it.Str("kind"), Bank: it.Str("bank"), Title: it.Str("title"),
		TitleMN: it.Str("titleMn"), Account: it.Str("account"), UserName: it.Str("userName"), Open: it.Bool("open"),
		Fiat: it.Str("fiat"), Ctime: it.Int("ctime"), Mtime: it.Int("mtime"), ver: it.Int(store.AttrVersion)}
}

// cleanText reports whether s holds no control or format characters
// (line breaks, bidirectional overrides), which would make the name shown
// to a buyer differ from the one stored.
func cleanText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
	})
}

// idLen is the length of a method id: 16 hex characters, 64 random bits,
// so two never meet (the write is conditional anyway).
const idLen = 16

func newID() string {
	b := make([]byte, idLen/2)
	if _, err := rand.Read(b); err != nil {
		panic("paymethod: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b)
}

func validID(id string) bool {
	if len(id) != idLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func internal(err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return err
	}
	return apperr.New(apperr.CodeInternal).WithCause(err)
}
