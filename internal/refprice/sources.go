package refprice

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// External sources: public market-data APIs of large venues, polled by the
// Service. None is reached unless configured (ParseSources), and nothing in
// the tests reaches them: they run against recorded answers.

// maxAnswer bounds what is read of a source's answer (Binance's list of
// every symbol is about 100 KB).
const maxAnswer = 4 << 20

// Binance quotes the indexes "<coin>usdt" from Binance's spot last prices
// (GET /api/v3/ticker/price, every symbol in one call of weight 4; asking
// for a list of symbols fails whole when one is not listed there).
type Binance struct {
	BaseURL string // https://api.binance.com
	Client  *http.Client
}

// Name implements Source.
func (b Binance) Name() string { return "binance" }

// Fetch implements Source.
func (b Binance) Fetch(ctx context.Context, symbols []string) (map[string]Quote, error) {
	var rows []struct {
		Symbol string          `json:"symbol"`
		Price  decimal.Decimal `json:"price"`
	}
	if err := getJSON(ctx, b.Client, b.BaseURL+"/api/v3/ticker/price", &rows); err != nil {
		return nil, fmt.Errorf("binance: %w", err)
	}
	want := usdtIndexes(symbols)
	now := time.Now()
	out := map[string]Quote{}
	for _, r := range rows {
		ix := strings.ToLower(r.Symbol)
		if want[ix] && r.Price.IsPositive() {
			out[ix] = Quote{Source: b.Name(), Price: r.Price, At: now}
		}
	}
	return out, nil
}

// OKX quotes the indexes "<coin>usdt" from OKX's own index prices (GET
// /api/v5/market/index-tickers?quoteCcy=USDT), each stamped with its time.
type OKX struct {
	BaseURL string // https://www.okx.com
	Client  *http.Client
}

// Name implements Source.
func (o OKX) Name() string { return "okx" }

// Fetch implements Source.
func (o OKX) Fetch(ctx context.Context, symbols []string) (map[string]Quote, error) {
	var ans struct {
		Code string `json:"code"`
		Msg  string `json:"msg"`
		Data []struct {
			InstID string          `json:"instId"`
			IdxPx  decimal.Decimal `json:"idxPx"`
			TS     string          `json:"ts"`
		} `json:"data"`
	}
	if err := getJSON(ctx, o.Client, o.BaseURL+"/api/v5/market/index-tickers?quoteCcy=USDT", &ans); err != nil {
		return nil, fmt.Errorf("okx: %w", err)
	}
	if ans.Code != "0" {
		return nil, fmt.Errorf("okx: code %s: %s", ans.Code, ans.Msg)
	}
	want := usdtIndexes(symbols)
	out := map[string]Quote{}
	for _, r := range ans.Data {
		ix := strings.ToLower(strings.ReplaceAll(r.InstID, "-", ""))
		ms, err := strconv.ParseInt(r.TS, 10, 64)
		if !want[ix] || !r.IdxPx.IsPositive() || err != nil {
			continue
		}
		out[ix] = Quote{Source: o.Name(), Price: r.IdxPx, At: time.UnixMilli(ms)}
	}
	return out, nil
}

// usdtIndexes are the indexes an external USDT market prices: every
// "<coin>usdt" one. The fiat's index (usdtmnt) is not one of them: "MNT"
// is another coin (Mantle) on those venues.
func usdtIndexes(symbols []string) map[string]bool {
	out := map[string]bool{}
	for _, s := range symbols {
		if s != FiatIndex && strings.HasSuffix(s, "usdt") {
			out[s] = true
		}
	}
	return out
}

func getJSON(ctx context.Context, c *http.Client, url string, dst any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d: %.200s", resp.StatusCode, body)
	}
	return json.Unmarshal(body, dst)
}

// ParseSources builds the external sources from a comma-separated list of
// names, each optionally with its base URL ("binance,okx" or
// "binance=https://api.binance.us"); "" means none.
func ParseSources(spec string, client *http.Client) ([]Source, error) {
	if client == nil {
		client = &http.Client{Timeout: fetchTimeout}
	}
	var out []Source
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, url, _ := strings.Cut(part, "=")
		url = strings.TrimRight(url, "/")
		switch strings.ToLower(name) {
		case "binance":
			if url == "" {
				url = "https://api.binance.com"
			}
			out = append(out, Binance{BaseURL: url, Client: client})
		case "okx":
			if url == "" {
				url = "https://www.okx.com"
			}
			out = append(out, OKX{BaseURL: url, Client: client})
		default:
			return nil, fmt.Errorf("refprice: unknown source %q (binance, okx)", name)
		}
	}
	return out, nil
}
