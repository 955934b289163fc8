// Umbrella header: the whole public API of xpose.
#pragma once

#include "xpose/descriptor.hpp"
#include "xpose/device.hpp"
#include "xpose/dtype.hpp"
#include "xpose/in_place.hpp"
#include "xpose/permute.hpp"
#include "xpose/plan.hpp"
#include "xpose/status.hpp"
