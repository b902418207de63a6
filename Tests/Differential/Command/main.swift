// The differential traces' command, over this repository's styles: `swift run differential-traces --help`.
import BoltsTraces
import DifferentialCore
import FBLTraces
import PromiseKitTraces

DifferentialCommand.main(interpreters: [PKInterpreter.self, BoltsInterpreter.self, FBLInterpreter.self])
