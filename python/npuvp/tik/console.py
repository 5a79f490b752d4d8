"""The interactive console of start_debug(interactive=True): a plain prompt on stdin."""
import sys


class Console:
    def __init__(self, tik):
        self._tik = tik

    def before_run(self):
        """Before the run: list the program, let the user look around, then continue or quit."""
        print("npuvp tikdb: %d instructions recorded; commands: (c)ontinue, (l)ist, (p)rint NAME, (q)uit"
              % self._tik._instructions)
        while True:
            sys.stdout.write("(tikdb) ")
            sys.stdout.flush()
            line = sys.stdin.readline()
            if not line:
                return
            cmd = line.strip().split()
            if not cmd or cmd[0] in ("c", "continue", "s", "step", "n", "next"):
                return
            if cmd[0] in ("q", "quit", "exit"):
                raise SystemExit("tikdb: quit")
            if cmd[0] in ("l", "list"):
                for stmt in self._tik._body:
                    if isinstance(stmt, tuple):  # a vector instruction
                        print("  %s %s" % (stmt[2], stmt[1]))
                    else:
                        print("  %s %s" % (stmt.get("loc", "?"), stmt.get("api", stmt.get("k"))))
                continue
            if cmd[0] in ("p", "print") and len(cmd) > 1:
                for t in self._tik._tensor_objs:
                    if t.name == cmd[1]:
                        print("  %r" % (t,))
                        break
                else:
                    for s in self._tik._scalar_objs:
                        if s.name == cmd[1]:
                            print("  %r" % (s,))
                            break
                    else:
                        print("  no tensor or scalar named %s" % cmd[1])
                continue
            print("  unknown command %r" % cmd[0])
