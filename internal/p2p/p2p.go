package p2p

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/store"
)

// Sides of an ad (the merchant's) and of an order (the taker's).
const (
	Buy  = "BUY"
	Sell = "SELL"
)

// Order states.
const (
	StatusPending           = "PENDING"
	StatusBuyerPaid         = "BUYER_PAID"
	StatusInAppeal          = "IN_APPEAL"
	StatusCompleted         = "COMPLETED"
	StatusCancelled         = "CANCELLED"
	StatusCancelledBySystem = "CANCELLED_BY_SYSTEM"
)

// Finished reports whether an order state is final.
func Finished(status string) bool {
	return status == StatusCompleted || status == StatusCancelled || status == StatusCancelledBySystem
}

// Ad states.
const (
	AdOpen   = "open"
	AdClosed = "closed"
)

// Price types of an ad.
const (
	PriceFixed    = "fixed"
	PriceFloating = "floating"
)

// Limits (named, as the ledger's are).
const (
	// MaxOpenAds is how many open ads a merchant may have.
	MaxOpenAds = 20
	// MaxOpenOrders is how many unfinished orders a user may have opened as taker.
	MaxOpenOrders = 5
	// MinMarginPct and MaxMarginPct bound a floating price (percent of the reference rate).
	MinMarginPct = 70
	MaxMarginPct = 130
	// MaxTermsLen bounds an ad's terms (characters).
	MaxTermsLen = 1000
	// MaxChatMessages bounds an order's chat.
	MaxChatMessages = 500
	// MaxChatLen bounds one chat message (characters).
	MaxChatLen = 1000
	// MaxAppealLen bounds an appeal's description (characters).
	MaxAppealLen = 1000
	// MaxEvidence bounds an appeal's evidence files.
	MaxEvidence = 5
	// FiatScale is the decimal places of fiat amounts and prices (MNT).
	FiatScale = 2
)

// PayMinutes are the payment time limits an ad may give.
var PayMinutes = []int{15, 30, 45, 60, 120, 180}

// Fiats are the fiat currencies ads may trade in.
var Fiats = []string{"MNT"}

// DefaultCoins are the coins P2P trades and the decimal places of their
// amounts (the OTC account's coins).
var DefaultCoins = map[string]int32{"USDT": 2, "BTC": 6, "ETH": 5}

// AppealReasons are the reasons an appeal may give.
var AppealReasons = []string{"paid_not_released", "not_received", "paid_wrong_amount", "seller_unresponsive", "buyer_unresponsive", "fraud", "other"}

// Profile is what P2P needs to know of a user from the identity service.
type Profile struct {
	Nick        string
	KYCVerified bool
}

// Profiles reads users' profiles (package auth's user items).
type Profiles interface {
	P2PProfile(ctx context.Context, uid string) (Profile, error)
}

// FundPassword checks the fund (trade) password of the wallet.
type FundPassword interface {
	// FundPasswordSet reports whether the user has set one.
	FundPasswordSet(ctx context.Context, uid string) (bool, error)
	// CheckFundPassword reports whether pw is it.
	CheckFundPassword(ctx context.Context, uid, pw string) (bool, error)
}

// Rates gives the reference rate of a coin in a fiat (floating prices).
type Rates interface {
	Rate(ctx context.Context, coin, fiat string) (decimal.Decimal, bool, error)
}

// Method is a payment method as an ad and its orders show it.
type Method struct {
	ID       string `json:"id"`
	Kind     string `json:"kind" doc:"bank, qpay or socialpay"`
	Title    string `json:"title"`
	UserName string `json:"userName"`
	Account  string `json:"account"`
	Bank     string `json:"bank,omitempty"`
}

// Methods reads a user's own payment methods by id (package paymethod).
type Methods interface {
	Methods(ctx context.Context, uid string, ids []string) ([]Method, error)
}

// Uploads checks that upload ids belong to a user (chat images, evidence).
type Uploads interface {
	Owned(ctx context.Context, uid string, ids []string) error
}

// Notifier is told after a transition is stored (push to both sides).
type Notifier interface {
	OrderChanged(ctx context.Context, o Order)
	ChatMessage(ctx context.Context, o Order, m Message)
}

// Options configure a Service.
type Options struct {
	Store    store.Store
	Ledger   *ledger.Ledger
	Profiles Profiles
	Methods  Methods
	Fund     FundPassword
	Rates    Rates
	// Uploads checks chat images and evidence; nil refuses attachments.
	Uploads Uploads
	// Notify, when set, is told of changes after they are stored.
	Notify Notifier
	// Start creates the timeout's workflow instance operation (workflow.StartOpAt
	// of TimeoutDefinition); nil creates none (tests that drive Timeout themselves).
	Start func(id string, input any, now, at time.Time) (store.Op, error)
	// Coins are the tradable coins and their amount scales (default DefaultCoins).
	Coins map[string]int32
	Now   func() time.Time
	Log   zerolog.Logger
}

// Service is P2P trading.
type Service struct {
	o Options
}

// New returns the service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Coins == nil {
		o.Coins = DefaultCoins
	}
	return &Service{o: o}
}

// SetUploads sets the check of chat images and appeal evidence (a
// service built before the upload service).
func (s *Service) SetUploads(u Uploads) { s.o.Uploads = u }

// Coins lists the tradable coins and their scales.
func (s *Service) Coins() map[string]int32 { return s.o.Coins }

func adKey(id string) store.Key       { return store.Key{PK: "P2PAD#" + id, SK: "A"} }
func orderKey(id string) store.Key    { return store.Key{PK: "P2PORD#" + id, SK: "O"} }
func chatKey(id string) store.Key     { return store.Key{PK: "P2PORD#" + id, SK: "CHAT"} }
func profileKey(uid string) store.Key { return store.Key{PK: "P2PUSER#" + uid, SK: "P"} }
func linkKey(uid string, open bool, created int64, id string) store.Key {
	state := "DONE#"
	if open {
		state = "OPEN#"
	}
	return store.Key{PK: "P2PUSER#" + uid, SK: state + sortKey(created, id)}
}
func sortKey(ms int64, id string) string { return fmt.Sprintf("%013d#%s", ms, id) }
func adsIndexPK(coin, fiat, side string) string {
	return "P2PADS#" + coin + "#" + fiat + "#" + side
}
func myAdsIndexPK(uid string) string { return "P2PMYADS#" + uid }

const appealsIndexPK = "P2PAPPEALS#open"

// otc is a user's OTC account.
func otc(uid string) ledger.Account { return ledger.UserAccount(uid, ledger.OTC) }

// newID returns an order or ad id: the creation time in ms then 6 random
// digits, so ids sort by time and read as an order number (spec:
// /p2p/order-detail?id={order sequence}).
func newID(now time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	n := (uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])) % 1000000
	return fmt.Sprintf("%013d%06d", now.UnixMilli(), n)
}

// validID reports whether id could be one of ours (19 digits).
func validID(id string) bool {
	if len(id) != 19 {
		return false
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// internal wraps a store failure: the caller answers a generic error.
func internal(err error) error {
	if err == nil {
		return nil
	}
	return apperr.As(err)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}

// cleanText trims a user's text and bounds it, refusing control characters
// other than line breaks and tabs.
func cleanText(s string, max int) (string, bool) {
	s = strings.TrimSpace(s)
	if len([]rune(s)) > max {
		return "", false
	}
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' && r != '\r' {
			return "", false
		}
	}
	return s, true
}

// ms is a time in Unix milliseconds.
func ms(t time.Time) int64 { return t.UnixMilli() }
