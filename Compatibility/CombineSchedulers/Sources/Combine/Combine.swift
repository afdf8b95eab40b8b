// The whole of the shim: code written for Combine finds Tether under Combine's module name.
@_exported import Tether
