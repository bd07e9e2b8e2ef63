// Command weed runs SeaweedFS's commands (Apache-2.0) for the object-store tests
// (scripts/local/seaweedfs.ts). It is SeaweedFS's own weed/weed.go trimmed to the dispatch: no
// error reporting to Sentry, no help pages, no embedded web UI. `go install …/weed@version` refuses
// SeaweedFS's module (its go.mod has a replace directive), so it is built here, with the same
// replace in go.mod and every module checked against go.sum.
package main

import (
	"fmt"
	"os"
	"testing/fstest"

	"github.com/seaweedfs/seaweedfs/weed/command"
	weed_server "github.com/seaweedfs/seaweedfs/weed/server"
	"github.com/seaweedfs/seaweedfs/weed/util"
	flag "github.com/seaweedfs/seaweedfs/weed/util/fla9"
	util_http "github.com/seaweedfs/seaweedfs/weed/util/http"
)

func init() {
	// The UI's files are not needed by the S3 gateway.
	weed_server.StaticFS = fstest.MapFS{}
	flag.Var(&util.ConfigurationFileDirectory, "config_dir", "directory with toml configuration files")
}

func main() {
	flag.Parse()
	args := flag.Args()
	if len(args) < 1 {
		fmt.Fprintln(os.Stderr, "usage: weed command [arguments]")
		os.Exit(2)
	}
	util_http.InitGlobalHttpClient()
	for _, cmd := range command.Commands {
		if cmd.Name() == args[0] && cmd.Run != nil {
			cmd.Flag.Usage = func() { cmd.Usage() }
			cmd.Flag.Parse(args[1:])
			if !cmd.Run(cmd, cmd.Flag.Args()) {
				cmd.Flag.PrintDefaults()
				os.Exit(1)
			}
			os.Exit(command.CommandExitStatus())
		}
	}
	fmt.Fprintf(os.Stderr, "weed: unknown subcommand %q\n", args[0])
	os.Exit(2)
}
