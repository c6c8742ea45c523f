package platform

import (
	"context"
	"time"

	"tenger/internal/binance"
	"tenger/internal/binance/wsstreamsaws"
)

// BinanceStreamsEvery is how often the engine task reads which Binance
// market streams have subscribers in AWS.
const BinanceStreamsEvery = time.Second

// StartBinanceStreams publishes Binance's market streams to the channels
// the WebSocket API's connections subscribed to (internal/binance/
// wsstreamsaws), from the market data this process feeds: the AWS engine
// task calls it once its engine runs. Each stream's events are computed
// once and published through the push port (queued: call
// UseAsyncMarketPush first). Without a push port it does nothing. It stops
// on Close, before the push port.
func (d *Deps) StartBinanceStreams() error {
	if d.Push == nil {
		return nil
	}
	md, err := d.MarketData()
	if err != nil {
		return err
	}
	log := d.Log.With().Str("service", "binance").Logger()
	srv := binance.New(binance.Options{Markets: d.Markets, Coins: d.Coins, Data: md, Now: d.Now, Log: log})
	ctx, cancel := context.WithCancel(context.Background())
	streams := srv.ChannelStreams(func(channel string, msg []byte) {
		if _, err := d.Push.Publish(ctx, channel, msg); err != nil && ctx.Err() == nil {
			log.Warn().Err(err).Str("channel", channel).Msg("binance stream not published")
		}
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		wsstreamsaws.Follow(ctx, d.Store, streams, BinanceStreamsEvery, d.Now, log)
	}()
	d.onClose(func() error {
		cancel()
		<-done
		streams.SyncChannels(nil)
		streams.Close()
		return nil
	})
	return nil
}
