// Package apigwtest is a stand-in for API Gateway's management API in
// tests of the functions and adapters that post to WebSocket connections:
// it records every PostToConnection and DeleteConnection instead of
// reaching API Gateway.
package apigwtest

import (
	"context"
	"errors"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/apigatewaymanagementapi"
	"github.com/aws/aws-sdk-go-v2/service/apigatewaymanagementapi/types"
)

// Mgmt records posts per connection. A post to a connection in Gone fails
// with GoneException, as API Gateway answers for a client that went away
// without $disconnect; a post for which FailIf holds fails as a throttled
// call does. Lock Mu to read or change the maps while others may post.
type Mgmt struct {
	Mu       sync.Mutex
	Posts    map[string][]string
	Attempts map[string]int
	Gone     map[string]bool
	FailIf   func(data string) bool
	Deleted  []string
}

// New returns an empty recorder.
func New() *Mgmt {
	return &Mgmt{Posts: map[string][]string{}, Attempts: map[string]int{}, Gone: map[string]bool{}}
}

// PostToConnection records the post (or fails it, see Mgmt).
func (m *Mgmt) PostToConnection(_ context.Context, in *apigatewaymanagementapi.PostToConnectionInput, _ ...func(*apigatewaymanagementapi.Options)) (*apigatewaymanagementapi.PostToConnectionOutput, error) {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	m.Attempts[*in.ConnectionId]++
	if m.FailIf != nil && m.FailIf(string(in.Data)) {
		return nil, errors.New("TooManyRequestsException: throttled")
	}
	if m.Gone[*in.ConnectionId] {
		return nil, &types.GoneException{Message: new(string)}
	}
	m.Posts[*in.ConnectionId] = append(m.Posts[*in.ConnectionId], string(in.Data))
	return &apigatewaymanagementapi.PostToConnectionOutput{}, nil
}

// DeleteConnection records the connection closed.
func (m *Mgmt) DeleteConnection(_ context.Context, in *apigatewaymanagementapi.DeleteConnectionInput, _ ...func(*apigatewaymanagementapi.Options)) (*apigatewaymanagementapi.DeleteConnectionOutput, error) {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	m.Deleted = append(m.Deleted, *in.ConnectionId)
	return &apigatewaymanagementapi.DeleteConnectionOutput{}, nil
}

// PostsTo returns a copy of the posts to one connection.
func (m *Mgmt) PostsTo(conn string) []string {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	return append([]string(nil), m.Posts[conn]...)
}

// Reset forgets the posts and attempts seen so far.
func (m *Mgmt) Reset() {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	m.Posts, m.Attempts = map[string][]string{}, map[string]int{}
}
