package refprice

import (
	"context"
	"testing"
)

func TestPinFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	src := FileSource{Dir: dir}
	pins, stamp, err := src.Read(context.Background())
	if err != nil || len(pins) != 0 || stamp != "" {
		t.Fatalf("no file: %v %q %v", pins, stamp, err)
	}
	want := map[string]Pin{"btcusdt": {Price: d("97000"), Note: "thin book"}}
	if err := WritePinFile(dir, want); err != nil {
		t.Fatal(err)
	}
	pins, stamp, err = src.Read(context.Background())
	if err != nil || stamp == "" || !pins["btcusdt"].Price.Equal(d("97000")) || pins["btcusdt"].Note != "thin book" {
		t.Fatalf("read back %v %q %v", pins, stamp, err)
	}
}

func TestParsePinsRefusesBadDocuments(t *testing.T) {
	for _, doc := range []string{
		`{"pins":{"BTCUSDT":{"price":"1"}}}`,
		`{"pins":{"btcusdt":{"price":"0"}}}`,
		`{"pins":{"btcusdt":{"price":"-5"}}}`,
		`{"pins":{"btcusdt":{"prize":"5"}}}`,
		`{"pinz":{}}`,
		`not json`,
	} {
		if _, err := ParsePins([]byte(doc)); err == nil {
			t.Errorf("%s accepted", doc)
		}
	}
}
