package wallet

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// Options configure the service.
type Options struct {
	Store  store.Store
	Ledger *ledger.Ledger
	Coins  *coins.Catalogue
	// Auth checks verification codes and Google codes and hashes the trade
	// password; it also supplies the user flags (isOpenMobileCheck, googleStatus).
	Auth *auth.Service
	// Prices values coins; nil means the seeded table (SeededPrices) until
	// the spot engine's last prices replace it.
	Prices Prices
	// Markets lists the margin pairs and the coins of the OTC, futures and
	// earn accounts; nil means DefaultMarkets.
	Markets *Markets
	// Funds moves money on spot balances (transfers); nil means the store
	// ledger (spotfunds.Ledger on Ledger and Store). Where the engine owns
	// spot balances, pass spotfunds.Engine.
	Funds spotfunds.Funds
	// Earn gives the earn view's figures (savings products, interest,
	// auto-subscribe); nil shows the earn balances alone.
	Earn EarnSource
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	Log zerolog.Logger
}

// Service is the wallet's accounts side.
type Service struct {
	st      store.Store
	led     *ledger.Ledger
	funds   spotfunds.Funds
	cat     *coins.Catalogue
	auth    *auth.Service
	prices  Prices
	markets Markets
	earn    EarnSource
	now     func() time.Time
	log     zerolog.Logger
	// snapped remembers, per user, the day whose snapshot this process
	// already stored, so balance reads do not retry the write all day.
	snapped sync.Map
}

// New builds the service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Prices == nil {
		o.Prices = SeededPrices()
	}
	m := DefaultMarkets()
	if o.Markets != nil {
		m = *o.Markets
	}
	if o.Ledger == nil && o.Store != nil {
		o.Ledger = ledger.New(o.Store, o.Now)
	}
	if o.Funds == nil {
		o.Funds = spotfunds.Ledger{Led: o.Ledger, Store: o.Store}
	}
	return &Service{st: o.Store, led: o.Ledger, funds: o.Funds, cat: o.Coins, auth: o.Auth, prices: o.Prices, markets: m, earn: o.Earn, now: o.Now, log: o.Log}
}

// Catalogue returns the coin catalogue the service uses.
func (s *Service) Catalogue() *coins.Catalogue { return s.cat }

// Storage keys. Everything the wallet stores for a user lives in the
// partition WALLET#<uid> (see doc.go).
// KeyPrefix starts the partition key of a user's wallet items (settings,
// transfers).
const KeyPrefix = "WALLET#"

func walletPK(uid string) string { return KeyPrefix + uid }

func settingsKey(uid string) store.Key { return store.Key{PK: walletPK(uid), SK: "SETTINGS"} }

// Settings attribute names.
const (
	attrVerifyAddress  = "verifyAddress"
	attrFeeCoinOpen    = "useFeeCoinOpen"
	attrCapitalHash    = "capitalPwHash"
	attrCapitalSetAt   = "capitalSetAt"
	attrWithdrawLocked = "withdrawLockedUntil"
)

// settings reads the user's wallet settings item (empty when none).
func (s *Service) settings(ctx context.Context, uid string) (store.Item, error) {
	if uid == "" {
		return nil, apperr.New(apperr.CodeNotSignedIn)
	}
	it, err := s.st.Get(ctx, settingsKey(uid))
	if errors.Is(err, store.ErrNotFound) {
		return store.Item{}, nil
	}
	if err != nil {
		return nil, internal(err)
	}
	return it, nil
}

// setSetting writes attributes of the settings item (creating it).
func (s *Service) setSetting(ctx context.Context, uid string, upd *store.Update) error {
	return s.setSettingIf(ctx, uid, upd, nil)
}

// setSettingIf is setSetting on condition cond (nil: none); a failed
// condition still matches store.ErrConditionFailed.
func (s *Service) setSettingIf(ctx context.Context, uid string, upd *store.Update, cond store.Cond) error {
	upd.SetIfMissing("uid", uid)
	if _, err := s.st.Update(ctx, settingsKey(uid), upd, cond); err != nil {
		return internal(err)
	}
	return nil
}

// VerifyAddressOn reports the user's verify-address switch: when on,
// withdrawals go only to addresses saved in the address book.
func (s *Service) VerifyAddressOn(ctx context.Context, uid string) (bool, error) {
	it, err := s.settings(ctx, uid)
	if err != nil {
		return false, err
	}
	return it.Int(attrVerifyAddress) == 1, nil
}

// WithdrawLockedUntil is the end of the 24 h withdrawal ban that follows a
// trade-password change or the reset of a lost authenticator (the zero
// time when there is none or it is over).
func (s *Service) WithdrawLockedUntil(ctx context.Context, uid string) (time.Time, error) {
	it, err := s.settings(ctx, uid)
	if err != nil {
		return time.Time{}, err
	}
	var t time.Time
	if ms := it.Int(attrWithdrawLocked); ms != 0 && time.UnixMilli(ms).After(s.now()) {
		t = time.UnixMilli(ms)
	}
	// The reset of a lost authenticator locks withdrawals too (auth's
	// recovery); the later of the two ends the lock.
	if s.auth != nil {
		a, err := s.auth.WithdrawLockedUntil(ctx, uid)
		if err != nil {
			return time.Time{}, err
		}
		if a.After(t) {
			t = a
		}
	}
	return t, nil
}

// FeeCoinOpen reports the user's "pay fees with the platform coin" switch
// (update_fee_coin_open); the spot issue reads it.
func (s *Service) FeeCoinOpen(ctx context.Context, uid string) (bool, error) {
	it, err := s.settings(ctx, uid)
	if err != nil {
		return false, err
	}
	return it.Int(attrFeeCoinOpen) == 1, nil
}

// SetFeeCoinOpen stores the fee-coin switch (1 on, 0 off).
func (s *Service) SetFeeCoinOpen(ctx context.Context, uid string, on bool) error {
	if uid == "" {
		return apperr.New(apperr.CodeNotSignedIn)
	}
	return s.setSetting(ctx, uid, store.NewUpdate().Set(attrFeeCoinOpen, b2i(on)))
}

// coin resolves a coin code (symbol, deposit or withdraw code) to the catalogue coin.
func (s *Service) coin(code string) (coins.Coin, error) {
	code = strings.TrimSpace(code)
	if code == "" {
		return coins.Coin{}, apperr.Param("coinSymbol: required")
	}
	c, ok := s.cat.Coin(code)
	if !ok {
		return coins.Coin{}, apperr.New(apperr.CodeWalletCoinUnknown, clip(code, 20))
	}
	return c, nil
}

// internal wraps an unexpected failure as CodeInternal (logged, never shown).
func internal(err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return err
	}
	return apperr.New(apperr.CodeInternal).WithCause(err)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func randomID() string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		panic("wallet: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// shortHash is a stable id derived from parts (addresses and bank accounts
// use it so the same entry cannot be saved twice).
func shortHash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s|", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil)[:10])
}

// zero is decimal zero, for readability.
var zero = decimal.Zero
