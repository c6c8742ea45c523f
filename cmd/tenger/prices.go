package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/coins"
	"tenger/internal/httpapi"
	"tenger/internal/platform"
	"tenger/internal/refprice"
)

// runPrices shows the reference prices and pins or unpins one. Locally the
// pins live in DIR/prices.json, which a running tenger serve reads within
// one step (5 s); with --aws they live in the table's pins item, which the
// engine task reads the same way.
func runPrices(args []string) error {
	fs := flag.NewFlagSet("prices", flag.ContinueOnError)
	data := fs.String("data", "./.tenger-data", "data directory")
	target := fs.String("target", "http://127.0.0.1:8080", "a running tenger serve, whose prices list shows")
	aws := fs.Bool("aws", false, "the AWS runtime's table ($TABLE_NAME, AWS credentials from the environment)")
	note := fs.String("note", "", "with pin: why (shown by list)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `tenger prices [--data DIR | --aws] [--target URL] list
    the reference prices (from a running server at URL, or with --aws from the table) and the pins
tenger prices [--data DIR | --aws] [--note TEXT] pin INDEX PRICE
    publish PRICE as INDEX's reference price (btcusdt: BTC in USDT; usdtmnt: MNT per USDT) until
    unpinned; the computed price goes on beside it
tenger prices [--data DIR | --aws] unpin INDEX
`)
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	var src refprice.PinSource
	var write func(map[string]refprice.Pin) error
	var live func() ([]httpapi.IndexPriceView, error)
	var cat *coins.Catalogue
	if *aws {
		d, err := platform.NewAWS(ctx, zerolog.Nop())
		if err != nil {
			return err
		}
		defer d.Close()
		ss := refprice.StoreSource{Store: d.Store}
		src, cat = ss, d.Coins
		write = func(p map[string]refprice.Pin) error { return ss.WritePins(ctx, p) }
		live = func() ([]httpapi.IndexPriceView, error) { return storedPrices(ctx, d) }
	} else {
		var err error
		if cat, err = coins.Load(*data); err != nil {
			return err
		}
		src = refprice.FileSource{Dir: *data}
		write = func(p map[string]refprice.Pin) error {
			if err := os.MkdirAll(*data, 0o700); err != nil {
				return err
			}
			return refprice.WritePinFile(*data, p)
		}
		live = func() ([]httpapi.IndexPriceView, error) { return servedPrices(*target) }
	}
	pins, _, err := src.Read(ctx)
	if err != nil {
		return err
	}
	if pins == nil {
		pins = map[string]refprice.Pin{}
	}
	rest := fs.Args()
	switch {
	case len(rest) == 1 && rest[0] == "list":
		return listPrices(os.Stdout, pins, live)
	case len(rest) == 3 && rest[0] == "pin":
		index := strings.ToLower(rest[1])
		if !slices.Contains(platform.RefIndexes(cat), index) {
			return fmt.Errorf("prices: %q is not an index (%s)", rest[1], strings.Join(platform.RefIndexes(cat), ", "))
		}
		price, err := decimal.NewFromString(rest[2])
		if err != nil || !price.IsPositive() {
			return fmt.Errorf("prices: %q is not a positive price", rest[2])
		}
		pins[index] = refprice.Pin{Price: price, Note: *note}
		if err := write(pins); err != nil {
			return err
		}
		fmt.Printf("%s pinned at %s; the service publishes it within 5 s\n", index, price)
		return nil
	case len(rest) == 2 && rest[0] == "unpin":
		index := strings.ToLower(rest[1])
		if _, ok := pins[index]; !ok {
			return fmt.Errorf("prices: %s is not pinned", index)
		}
		delete(pins, index)
		if err := write(pins); err != nil {
			return err
		}
		fmt.Printf("%s unpinned; the computed price is published within 5 s\n", index)
		return nil
	default:
		fs.Usage()
		return errors.New("prices: expected list, pin INDEX PRICE or unpin INDEX")
	}
}

// listPrices prints the live prices (when they can be read) and the pins.
func listPrices(out io.Writer, pins map[string]refprice.Pin, live func() ([]httpapi.IndexPriceView, error)) error {
	w := tabwriter.NewWriter(out, 0, 2, 2, ' ', 0)
	views, err := live()
	if err != nil {
		fmt.Fprintf(w, "reference prices unavailable: %v\n", err)
	} else {
		fmt.Fprintln(w, "INDEX\tPRICE\tCOMPUTED\tPINNED\tSOURCES\tUPDATED")
		for _, v := range views {
			var srcs []string
			for k, p := range v.Sources {
				srcs = append(srcs, k+"="+p)
			}
			slices.Sort(srcs)
			upd := "-"
			if v.UpdatedAt > 0 {
				upd = time.UnixMilli(v.UpdatedAt).UTC().Format("2006-01-02 15:04:05")
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%v\t%s\t%s\n", v.Symbol, v.Price, v.Computed, v.Pinned, strings.Join(srcs, " "), upd)
		}
	}
	if len(pins) > 0 {
		fmt.Fprintln(w, "\nPINNED\tPRICE\tNOTE")
		names := make([]string, 0, len(pins))
		for k := range pins {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			fmt.Fprintf(w, "%s\t%s\t%s\n", k, pins[k].Price, pins[k].Note)
		}
	}
	return w.Flush()
}

// servedPrices asks a running server for its index prices.
func servedPrices(target string) ([]httpapi.IndexPriceView, error) {
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Post(strings.TrimRight(target, "/")+"/fe-ex-api/common/index_price", "application/json",
		strings.NewReader("{}"))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var env struct {
		Code string                   `json:"code"`
		Msg  string                   `json:"msg"`
		Data []httpapi.IndexPriceView `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&env); err != nil {
		return nil, err
	}
	if env.Code != "0" {
		return nil, fmt.Errorf("code %s: %s", env.Code, env.Msg)
	}
	return env.Data, nil
}

// storedPrices reads the index prices from the AWS runtime's table.
func storedPrices(ctx context.Context, d *platform.Deps) ([]httpapi.IndexPriceView, error) {
	all, err := d.RefPrices().All(ctx)
	if err != nil {
		return nil, err
	}
	return httpapi.IndexPriceViews(all), nil
}
