package auth

import (
	"context"
	"errors"
	"fmt"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// History kinds: the prefix of the entries' sort keys and of their counter.
const (
	histLogin   = "LOGIN"
	histSetting = "SETTING"
)

// History actions (stored as keys, shown in the caller's language).
const (
	actLogin          = "login"
	actLoginFailed    = "login_failed"
	actLogin2FAFailed = "login_2fa_failed"
	actLoginLocked    = "login_locked"
	actLogout         = "logout"
	actRegister       = "register"
	actPasswordUpdate = "password_update"
	actPasswordReset  = "password_reset"
	actGoogleOn       = "google_on"
	actGoogleOff      = "google_off"
	actGoogleReset    = "google_reset"
	actMobileBind     = "mobile_bind"
	actMobileUpdate   = "mobile_update"
	actEmailUpdate    = "email_update"
	actMobileCheckOn  = "mobile_check_on"
	actMobileCheckOff = "mobile_check_off"
	actNicknameUpdate = "nickname_update"
	actAccountCancel  = "account_cancel"
	actAccountReopen  = "account_reopen"
)

var actionText = map[string][2]string{
	actLogin:          {"Signed in", "Нэвтэрсэн"},
	actLoginFailed:    {"Failed sign-in: wrong password", "Амжилтгүй нэвтрэлт: нууц үг буруу"},
	actLogin2FAFailed: {"Failed sign-in: wrong verification code", "Амжилтгүй нэвтрэлт: баталгаажуулах код буруу"},
	actLoginLocked:    {"Sign-in locked after too many failures", "Олон удаа буруу оролдсон тул нэвтрэлт түгжигдсэн"},
	actLogout:         {"Signed out", "Гарсан"},
	actRegister:       {"Account created", "Бүртгэл үүсгэсэн"},
	actPasswordUpdate: {"Password changed", "Нууц үг солисон"},
	actPasswordReset:  {"Password reset", "Нууц үг сэргээсэн"},
	actGoogleOn:       {"Google authenticator turned on", "Google баталгаажуулагч идэвхжүүлсэн"},
	actGoogleOff:      {"Google authenticator turned off", "Google баталгаажуулагч идэвхгүй болгосон"},
	actGoogleReset: {"Google authenticator reset with e-mail and SMS codes; withdrawals locked for 24 hours",
		"Google баталгаажуулагчийг имэйл, SMS кодоор сэргээсэн; 24 цаг татан авалт хаагдсан"},
	actMobileBind:     {"Phone number bound", "Утасны дугаар холбосон"},
	actMobileUpdate:   {"Phone number changed", "Утасны дугаар солисон"},
	actEmailUpdate:    {"E-mail changed", "Имэйл хаяг солисон"},
	actMobileCheckOn:  {"SMS check turned on", "Мессежээр баталгаажуулах идэвхжүүлсэн"},
	actMobileCheckOff: {"SMS check turned off", "Мессежээр баталгаажуулах идэвхгүй болгосон"},
	actNicknameUpdate: {"Nickname changed", "Хоч нэр солисон"},
	actAccountCancel:  {"Account closed by its owner", "Эзэмшигч бүртгэлээ хаасан"},
	actAccountReopen:  {"Account reopened by support", "Тусламжийн төв бүртгэлийг дахин нээсэн"},
}

func actionLabel(action, lang string) string {
	t, ok := actionText[action]
	if !ok {
		return action
	}
	if lang == apperr.LangMN {
		return t[1]
	}
	return t[0]
}

func countersKey(uid string) store.Key { return store.Key{PK: "USER#" + uid, SK: "COUNTERS"} }

func historySK(kind string, seq int64) string { return fmt.Sprintf("%s#%012d", kind, seq) }

// historyOp allocates the next sequence number of the user's kind history
// and returns the put of its entry, to commit with the change it records
// (a failed commit leaves a harmless gap in the sequence).
func (s *Service) historyOp(ctx context.Context, uid, kind, action string, m Meta) (store.Op, error) {
	it, err := s.st.Update(ctx, countersKey(uid), store.NewUpdate().AddInt(kind+"Seq", 1), nil)
	if err != nil {
		return store.Op{}, internal(err)
	}
	seq := it.Int(kind + "Seq")
	return store.PutOp(store.Item{
		store.AttrPK: "USER#" + uid, store.AttrSK: historySK(kind, seq),
		"time": s.now().UnixMilli(), "ip": m.IP, "device": clip(m.Device, 128), "ua": clip(m.UserAgent, 256), "action": action,
	}, store.ItemNotExists()), nil
}

// recordHistory writes a history entry on its own; failures are logged, not
// returned, since what it records has already happened.
func (s *Service) recordHistory(ctx context.Context, uid, kind, action string, m Meta) {
	op, err := s.historyOp(ctx, uid, kind, action, m)
	if err == nil {
		err = s.st.Put(ctx, op.Item, op.Cond)
	}
	if err != nil {
		s.log.Warn().Err(err).Str("uid", uid).Str("history", kind).Msg("history entry not written")
	}
}

// HistoryEntry is one line of the login or setting history.
type HistoryEntry struct {
	Time   int64  `json:"time" doc:"Unix ms"`
	IP     string `json:"ip"`
	Device string `json:"device"`
	// DeviceName is the browser and system read from the User-Agent of the
	// request ("Chrome 131 on Windows"); "" for entries recorded before it
	// was kept, or an unknown agent.
	DeviceName string `json:"deviceName" doc:"the browser and system, read from the user agent"`
	Action     string `json:"action" doc:"what happened, in the caller's language"`
}

// HistoryPage is one page of a history, newest first.
type HistoryPage struct {
	Count int64          `json:"count" doc:"number of entries in the whole history"`
	List  []HistoryEntry `json:"list"`
}

// Paging limits of the histories.
const (
	MaxPageSize     = 100
	DefaultPageSize = 10
)

// LoginHistory returns a page of the caller's login history, newest first.
func (s *Service) LoginHistory(ctx context.Context, m Meta, page, size int) (HistoryPage, error) {
	return s.history(ctx, m, histLogin, page, size)
}

// SettingHistory returns a page of the caller's setting history, newest first.
func (s *Service) SettingHistory(ctx context.Context, m Meta, page, size int) (HistoryPage, error) {
	return s.history(ctx, m, histSetting, page, size)
}

func (s *Service) history(ctx context.Context, m Meta, kind string, page, size int) (HistoryPage, error) {
	if m.UserID == "" {
		return HistoryPage{}, apperr.New(apperr.CodeNotSignedIn)
	}
	if page < 1 {
		page = 1
	}
	if size < 1 {
		size = DefaultPageSize
	}
	if size > MaxPageSize {
		size = MaxPageSize
	}
	out := HistoryPage{List: []HistoryEntry{}}
	c, err := s.st.Get(ctx, countersKey(m.UserID))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return out, internal(err)
	}
	out.Count = c.Int(kind + "Seq")
	// Entries are numbered 1..Count; page p (newest first) holds the
	// numbers hi down to lo, read with one range query.
	hi := out.Count - int64(page-1)*int64(size)
	if hi < 1 {
		return out, nil
	}
	lo := max(hi-int64(size)+1, 1)
	q := store.Query{PK: "USER#" + m.UserID, SK: store.SKRange(historySK(kind, lo), historySK(kind, hi)), Desc: true, Limit: size}
	for {
		p, err := s.st.Query(ctx, q)
		if err != nil {
			return out, internal(err)
		}
		for _, it := range p.Items {
			out.List = append(out.List, HistoryEntry{
				Time: it.Int("time"), IP: it.Str("ip"), Device: it.Str("device"), DeviceName: DeviceName(it.Str("ua")),
				Action: actionLabel(it.Str("action"), m.Lang),
			})
		}
		if p.Cursor == "" || len(out.List) >= size {
			break
		}
		q.Cursor = p.Cursor
	}
	return out, nil
}
