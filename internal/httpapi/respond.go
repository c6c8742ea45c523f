package httpapi

import (
	"encoding/json"
	"net/http"
	"time"

	"tenger/internal/apperr"
)

// Envelope is the body of every API answer.
type Envelope struct {
	Code     string `json:"code"`
	Msg      string `json:"msg"`
	Data     any    `json:"data"`
	ErrorMsg string `json:"errorMsg,omitempty"`
}

var successMsg = map[string]string{apperr.LangEN: "success", apperr.LangMN: "амжилттай"}

// answerOf is the one mapping of a call's outcome to its envelope and
// HTTP status, in the caller's language lang: data on success, else the
// catalogue error (any other error is CodeInternal, returned as ae so the
// caller logs its cause). Every path answers through it: the REST routes
// (finish, WriteError, WriteOK), each entry of /order/batch and each
// WebSocket request.
func answerOf(lang string, data any, err error) (status int, env Envelope, ae *apperr.Error) {
	if err == nil {
		return http.StatusOK, Envelope{Code: apperr.CodeOK, Msg: successMsg[lang], Data: data}, nil
	}
	ae = apperr.As(err)
	return ae.Entry.HTTP, Envelope{Code: ae.Entry.Code, Msg: ae.Message(lang), Data: ae.Data, ErrorMsg: ae.ErrorMsg}, ae
}

// finish writes the envelope and the access log line. Bodies, tokens and
// codes are never logged.
func (r *Router) finish(c *Call, data any, err error) {
	status, env, ae := answerOf(c.Lang, data, err)
	if ae != nil && ae.Entry.Code == apperr.CodeInternal {
		c.Log.Error().Err(ae.Cause).Str("path", c.Req.URL.Path).Msg("internal error")
	}
	c.code, c.status = env.Code, status
	writeJSON(c.W, status, env)
	ev := c.Log.Info()
	if status >= 500 {
		ev = c.Log.Warn()
	}
	ev.Str("method", c.Req.Method).Str("path", c.Req.URL.Path).Int("status", status).Str("code", env.Code).
		Str("ip", c.IP).Dur("dur", time.Since(c.start)).Msg("request")
}

// writeJSON writes v as JSON with no-store caching (API answers are per user).
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// WriteJSON writes an arbitrary JSON document (for raw routes).
func WriteJSON(w http.ResponseWriter, status int, v any) { writeJSON(w, status, v) }

// WriteError writes a catalogue error as an envelope from a raw handler.
func WriteError(w http.ResponseWriter, hr *http.Request, err error) {
	if err == nil {
		err = apperr.New(apperr.CodeInternal)
	}
	status, env, _ := answerOf(language(hr), nil, err)
	writeJSON(w, status, env)
}

// WriteOK writes a success envelope from a raw handler.
func WriteOK(w http.ResponseWriter, hr *http.Request, data any) {
	status, env, _ := answerOf(language(hr), data, nil)
	writeJSON(w, status, env)
}
