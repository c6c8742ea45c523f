package kyc

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// LevelUnverified names the limits of a user who holds no level (tenger
// kyc limits set --level unverified).
const LevelUnverified = "unverified"

// LevelBasic is the first level: an identity document, no selfie for now.
const LevelBasic = "basic"

// DefaultUnverifiedWithdrawDailyUSDT is what an unverified user may
// withdraw in 24 hours until an operator says otherwise: enough to take a
// small deposit back out, too little to launder through an account nobody
// vouched for.
var DefaultUnverifiedWithdrawDailyUSDT = decimal.NewFromInt(1000)

// DefaultVerifiedWithdrawDailyUSDT is the basic level's limit when the
// deployment names none: withdraw_daily_limit_usdt's default, so a
// verified user keeps the limit every user had before levels existed.
var DefaultVerifiedWithdrawDailyUSDT = decimal.NewFromInt(100000)

// Level is a verification level: what is asked for and the daily
// withdrawal limit it gives.
type Level struct {
	Name string `json:"levelName"`
	// ProviderLevel is the level's name at the provider (Sumsub's
	// levelName, set up in its dashboard).
	ProviderLevel     string          `json:"providerLevel"`
	WithdrawDailyUSDT decimal.Decimal `json:"withdrawDailyUsdt" doc:"24 h withdrawal limit in USDT this level gives"`
	Description       string          `json:"description"`
}

// Settings are the operator's levels and limits. Levels are in ascending
// order: a level's rank is its position from 1; rank 0 is unverified.
type Settings struct {
	UnverifiedWithdrawDailyUSDT decimal.Decimal `json:"unverifiedWithdrawDailyUsdt"`
	Levels                      []Level         `json:"levels"`
	version                     int64
}

// DefaultSettings are the settings before an operator changes them: one
// level, basic, whose limit is verified (withdraw_daily_limit_usdt;
// zero: DefaultVerifiedWithdrawDailyUSDT).
func DefaultSettings(verified decimal.Decimal) Settings {
	if !verified.IsPositive() {
		verified = DefaultVerifiedWithdrawDailyUSDT
	}
	return Settings{UnverifiedWithdrawDailyUSDT: DefaultUnverifiedWithdrawDailyUSDT, Levels: []Level{{
		Name: LevelBasic, ProviderLevel: "basic-kyc-level", WithdrawDailyUSDT: verified,
		Description: "Identity document (passport, ID card or driving licence); no selfie",
	}}}
}

// Rank is a level's rank (0 for "" and for a name that is no level).
func (s Settings) Rank(name string) int {
	for i, l := range s.Levels {
		if l.Name == name {
			return i + 1
		}
	}
	return 0
}

// Level finds a level by name.
func (s Settings) Level(name string) (Level, bool) {
	if r := s.Rank(name); r > 0 {
		return s.Levels[r-1], true
	}
	return Level{}, false
}

// ByProvider finds the level of a provider's level name.
func (s Settings) ByProvider(providerLevel string) (Level, bool) {
	for _, l := range s.Levels {
		if l.ProviderLevel == providerLevel {
			return l, true
		}
	}
	return Level{}, false
}

// Below is the level just below name ("" when it is the first).
func (s Settings) Below(name string) string {
	if r := s.Rank(name); r > 1 {
		return s.Levels[r-2].Name
	}
	return ""
}

// LimitOf is the 24 h withdrawal limit of a user holding level (""
// unverified). A level that is no longer configured gives the unverified
// limit: a limit is never more than a setting says.
func (s Settings) LimitOf(level string) decimal.Decimal {
	if l, ok := s.Level(level); ok {
		return l.WithdrawDailyUSDT
	}
	return s.UnverifiedWithdrawDailyUSDT
}

// levelName is what a level's and a provider level's names may hold: they
// travel in URLs and Sumsub's level names are case-sensitive words.
var levelName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$`)

func (s Settings) validate() error {
	if !s.UnverifiedWithdrawDailyUSDT.IsPositive() {
		return apperr.New(apperr.CodeKYCLimitInvalid, s.UnverifiedWithdrawDailyUSDT.String())
	}
	if len(s.Levels) == 0 {
		return apperr.New(apperr.CodeKYCFormField, "levels")
	}
	seen := map[string]bool{}
	for _, l := range s.Levels {
		if !levelName.MatchString(l.Name) || strings.EqualFold(l.Name, LevelUnverified) {
			return apperr.New(apperr.CodeKYCFormField, "levelName")
		}
		if !levelName.MatchString(l.ProviderLevel) {
			return apperr.New(apperr.CodeKYCFormField, "providerLevel")
		}
		if seen[l.Name] || seen["provider:"+l.ProviderLevel] {
			return apperr.New(apperr.CodeKYCLevelExists, l.Name)
		}
		seen[l.Name], seen["provider:"+l.ProviderLevel] = true, true
		if !l.WithdrawDailyUSDT.IsPositive() {
			return apperr.New(apperr.CodeKYCLimitInvalid, l.WithdrawDailyUSDT.String())
		}
		if len(l.Description) > 200 {
			return apperr.New(apperr.CodeKYCFormField, "description")
		}
	}
	return nil
}

// settingsKey is under CONFIG#, which every process of the AWS runtime
// reads: the withdrawal submit (wallet and openapi functions) reads the
// limits without a grant of its own.
var settingsKey = store.Key{PK: "CONFIG#kyc", SK: "SETTINGS"}

// Settings reads the operator's levels and limits (the defaults until an
// operator changes them).
func (s *Service) Settings(ctx context.Context) (Settings, error) {
	it, err := s.o.Store.Get(ctx, settingsKey)
	if errors.Is(err, store.ErrNotFound) {
		return DefaultSettings(s.o.VerifiedWithdrawDailyUSDT), nil
	}
	if err != nil {
		return Settings{}, internal(err)
	}
	set := Settings{UnverifiedWithdrawDailyUSDT: it.Dec("unverifiedWithdrawDailyUsdt"), version: it.Int(store.AttrVersion)}
	if err := json.Unmarshal([]byte(it.Str("levels")), &set.Levels); err != nil {
		return Settings{}, internal(err)
	}
	return set, nil
}

// saveSettings writes changed settings if nobody changed them since they
// were read (change reads and retries).
func (s *Service) saveSettings(ctx context.Context, change func(*Settings) error) (Settings, error) {
	for try := 0; ; try++ {
		set, err := s.Settings(ctx)
		if err != nil {
			return Settings{}, err
		}
		set.Levels = append([]Level(nil), set.Levels...)
		if err := change(&set); err != nil {
			return Settings{}, err
		}
		if err := set.validate(); err != nil {
			return Settings{}, err
		}
		levels, err := json.Marshal(set.Levels)
		if err != nil {
			return Settings{}, internal(err)
		}
		it := store.Item{store.AttrPK: settingsKey.PK, store.AttrSK: settingsKey.SK,
			"unverifiedWithdrawDailyUsdt": set.UnverifiedWithdrawDailyUSDT, "levels": string(levels),
			"updated": s.o.Now().UnixMilli(), store.AttrVersion: set.version + 1}
		err = s.o.Store.Put(ctx, it, store.VersionIs(set.version))
		if errors.Is(err, store.ErrConditionFailed) && try < 5 {
			continue
		}
		if err != nil {
			return Settings{}, internal(err)
		}
		set.version++
		return set, nil
	}
}

// SetLimit changes the 24 h withdrawal limit (USDT) of a level, or of
// unverified users (level LevelUnverified).
func (s *Service) SetLimit(ctx context.Context, level string, usdt decimal.Decimal) (Settings, error) {
	if !usdt.IsPositive() {
		return Settings{}, apperr.New(apperr.CodeKYCLimitInvalid, usdt.String())
	}
	return s.saveSettings(ctx, func(set *Settings) error {
		if level == LevelUnverified {
			set.UnverifiedWithdrawDailyUSDT = usdt
			return nil
		}
		r := set.Rank(level)
		if r == 0 {
			return apperr.New(apperr.CodeKYCLevelUnknown, level)
		}
		set.Levels[r-1].WithdrawDailyUSDT = usdt
		return nil
	})
}

// AddLevel adds a level above the existing ones (its provider level must
// be set up at the provider first). Levels are never removed: users hold
// them.
func (s *Service) AddLevel(ctx context.Context, l Level) (Settings, error) {
	return s.saveSettings(ctx, func(set *Settings) error {
		if _, ok := set.Level(l.Name); ok {
			return apperr.New(apperr.CodeKYCLevelExists, l.Name)
		}
		set.Levels = append(set.Levels, l)
		return nil
	})
}
